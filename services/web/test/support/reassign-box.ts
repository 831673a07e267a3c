import assert from 'node:assert/strict';
import { flat } from './page-text.js';

// The "Signers may ask someone else to sign in their place" box (ADR 3560), as New Request and
// bulk send show it.

export const LABEL = 'Signers may ask someone else to sign in their place';
export const HINT =
  'They give that person’s e-mail address on their signing page; the new signer gets their own link, and the history says who asked. Not offered to a signer whose check is an access code or a text message code.';

/** The box as shown: its error, input, label and hint. */
export const box = (page: string): string => {
  const start = page.lastIndexOf('<div class="field">', page.indexOf('id="allow_reassign"'));
  return flat(page.slice(start, page.indexOf('</div>', start)));
};

/** The box is offered unticked, labelled, with its hint tied to it. */
export const assertOfferedUnticked = (page: string): void => {
  const shown = box(page);
  assert.match(
    shown,
    /<input type="checkbox" id="allow_reassign" name="allow_reassign" value="true" aria-describedby="allow_reassign-hint" \/>/,
  );
  assert.ok(shown.includes(` ${LABEL}</label >`), shown);
  assert.ok(shown.includes(`<p class="hint" id="allow_reassign-hint">${HINT}</p>`), shown);
  assert.doesNotMatch(shown, /checked/);
};
