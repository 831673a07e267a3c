import { html, type Html } from '../html.js';
import { tick } from '../layout.js';

/**
 * **Reassignment** (ADR 3560): a Request's `allow_reassign` setting, false unless asked for.
 * With it, a signer may ask someone else to sign in their place from their signing page.
 * New Request and bulk send offer the box (sending `allow_reassign: true` only when it is
 * ticked); a Request's page lists it among its facts (`request-facts.ts`) when it is on, and
 * a draft's or a sent Request's page turns it on or off (`request-reassign-form.ts`).
 */

export const REASSIGN_LABEL = 'Signers may ask someone else to sign in their place';

export const REASSIGN_HINT =
  'They give that person’s e-mail address on their signing page; the new signer gets their own link, and the history says who asked. Not offered to a signer whose check is an access code or a text message code.';

/** The box, unticked unless asked for; its id is the API's path, so a refusal lands beside it. */
export const reassignBox = (checked: boolean, error: string | undefined): Html =>
  html`<div class="field">
    ${tick('allow_reassign', 'allow_reassign', REASSIGN_LABEL, checked, error, REASSIGN_HINT)}
  </div>`;

/** The body's part: `allow_reassign: true` when ticked, else nothing (the API's default). */
export const reassignPart = (allow: boolean): { readonly allow_reassign?: true } =>
  allow ? { allow_reassign: true } : {};
