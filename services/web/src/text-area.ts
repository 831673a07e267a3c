import { html, type Html } from './html.js';

/**
 * A labelled text area for code-like text (HTML, field lines, JSON: no spell-check), named
 * as its id; its hint (any markup) above it, and its error line always there, for a script
 * to fill in, both tied by `aria-describedby`.
 */
export const textArea = (
  id: string,
  label: string,
  value: string,
  rows: number,
  error?: string,
  hint?: Html,
): Html =>
  html` <div class="field">
    <label for="${id}">${label}</label>
    ${hint ? html`<div class="hint" id="${id}-hint">${hint}</div>` : ''}
    <p class="error" id="${id}-error">${error ?? ''}</p>
    <textarea
      id="${id}"
      name="${id}"
      rows="${rows}"
      spellcheck="false"
      aria-describedby="${hint ? `${id}-hint ` : ''}${id}-error"
      ${error ? html` aria-invalid="true"` : ''}
    >
${value}</textarea>
  </div>`;
