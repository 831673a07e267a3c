/** Markup that is safe to send: built by `html` from escaped values, never from raw input. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Interpolated = Html | string | number | boolean | null | undefined | readonly Interpolated[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);

const render = (value: Interpolated): string => {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
};

/**
 * The one way pages build markup: every interpolated value is escaped unless it is
 * `Html` already, so a name, a template's text or an API message can never become markup.
 */
export const html = (strings: TemplateStringsArray, ...values: readonly Interpolated[]): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ''), ''));

/** Markup this module wrote itself (the stylesheet, the script); never text from outside. */
export const trusted = (markup: string): Html => new Html(markup);
