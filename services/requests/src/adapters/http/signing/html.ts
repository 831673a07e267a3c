import { escapeHtml } from '../../../domain/document.js';

/** Markup that is already safe: built by `safe` or by the contract sanitizer, never from raw input. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolated = Html | string | number | boolean | null | undefined | readonly Interpolated[];

const render = (value: Interpolated): string => {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
};

/**
 * A template tag that escapes every interpolated value unless it is `Html` already, so a
 * page cannot forget to escape a name, a field value or a URL.
 */
export const safe = (strings: TemplateStringsArray, ...values: readonly Interpolated[]): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ''), ''));

/** Trusted markup: only for text this module controls or the sanitizer produced. */
export const trusted = (markup: string): Html => new Html(markup);
