import { html, type Html, type Interpolated } from './html.js';

/** A column heading; `wide` columns show only on wide screens (app.css), `hidden` headings to screen readers only. */
export type Column = string | { readonly label: string; readonly wide?: boolean; readonly hidden?: boolean };

/**
 * The one shape of a data table: a scrolling wrapper (a named, focusable region when
 * `region` is given, so a keyboard can scroll it), a caption (visible, or for screen
 * readers only), column headings with their scope, and one row per item.
 */
export const dataTable = (input: {
  readonly caption: Interpolated;
  readonly captionHidden?: boolean;
  readonly region?: string;
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly Interpolated[])[];
}): Html => {
  const heading = (column: Column) => {
    if (typeof column === 'string') return html`<th scope="col">${column}</th>`;
    const label = column.hidden ? html`<span class="visually-hidden">${column.label}</span>` : column.label;
    return column.wide
      ? html`<th scope="col" class="wide">${label}</th>`
      : html`<th scope="col">${label}</th>`;
  };
  const table = html`<table>
    <caption${input.captionHidden ? html` class="visually-hidden"` : ''}>${input.caption}</caption>
    <thead>
      <tr>
        ${input.columns.map(heading)}
      </tr>
    </thead>
    <tbody>
      ${input.rows.map(
        (cells) =>
          html`<tr>
            ${cells.map((cell, i) => {
              const column = input.columns[i];
              return typeof column === 'object' && column.wide === true
                ? html`<td class="wide">${cell}</td>`
                : html`<td>${cell}</td>`;
            })}
          </tr>`,
      )}
    </tbody>
  </table>`;
  return input.region === undefined
    ? html`<div class="table-wrap">${table}</div>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${input.region}">${table}</div>`;
};

/** A one-button form that posts to `action` with the session's anti-forgery token (revoke, remove). */
export const postButton = (input: {
  readonly action: string;
  readonly csrf: Html;
  readonly label: string;
  readonly ariaLabel: string;
  /** `danger` (the default) for what takes something away; `secondary` for what does not. */
  readonly kind?: 'danger' | 'secondary';
  /** What else the form carries, as hidden inputs (whom it is about, its Idempotency-Key). */
  readonly hidden?: Readonly<Record<string, string>>;
}): Html => {
  const kind = input.kind ?? 'danger';
  return html`<form method="post" action="${input.action}" class="inline">
    ${input.csrf}
    ${Object.entries(input.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
    <button type="submit" class="${kind}" aria-label="${input.ariaLabel}">${input.label}</button>
  </form>`;
};
