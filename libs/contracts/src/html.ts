/**
 * Markup that is safe to send: built by a tag from `htmlTemplate` out of escaped values,
 * or marked `trusted`, never from raw input.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Interpolated = Html | string | number | boolean | null | undefined | readonly Interpolated[];

/**
 * A template tag that escapes every interpolated value with `escape` unless it is `Html`
 * already (arrays are joined, `null`, `undefined` and `false` left out), so a page cannot
 * forget to escape a name, a field value or a URL.
 */
export const htmlTemplate = (
  escape: (text: string) => string,
): ((strings: TemplateStringsArray, ...values: readonly Interpolated[]) => Html) => {
  const render = (value: Interpolated): string => {
    if (value instanceof Html) return value.value;
    if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join('');
    if (value === null || value === undefined || value === false) return '';
    return escape(String(value));
  };
  return (strings, ...values) =>
    new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ''), ''));
};

/** Markup the caller wrote itself or a sanitizer produced; never text from outside. */
export const trusted = (markup: string): Html => new Html(markup);
