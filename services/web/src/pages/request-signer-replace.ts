import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { RequestView, type ReplaceRequestSignerBody } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import type { FormFields } from '../forms.js';
import { posted } from '../guard.js';
import { html, type Html } from '../html.js';
import { segment } from './common.js';
import { messageOf } from './request-message.js';
import type { ReplaceForm } from './request-signer-replace-form.js';

/**
 * What **Replace signer…** posts (ADR 3550): `POST /v1.1/requests/:id/signers/:signer_id/replace`
 * with the new signer as a create's `signers[]` entry gives one, and the form's own
 * Idempotency-Key, as Correct contact does; then the notice naming both signers.
 */

const ticked = (fields: FormFields, name: string) => fields[name] === 'true';

export const replaceFormOf = (fields: FormFields): ReplaceForm => ({
  replaced: fields.replaced ?? '',
  idempotencyKey: fields.idempotency_key ?? '',
  signerId: fields.signer_id ?? '',
  email: (fields.email ?? '').trim(),
  mobile: (fields.mobile_number ?? '').trim(),
  byEmail: ticked(fields, 'send_to_email'),
  bySms: ticked(fields, 'send_to_sms'),
  notify: ticked(fields, 'notify'),
  message: fields.message ?? '',
});

/**
 * The body: the new id, white space around it dropped; the address and number unless left
 * empty; the channels when a box is ticked (none ticked is a create's default, none); and
 * `notify: false` only when the box was unticked (true is the API's default); the note to
 * the new signer unless left blank.
 */
export const replaceBodyOf = (form: ReplaceForm): ReplaceRequestSignerBody => {
  const signer = {
    ...(form.email === '' ? {} : { email: form.email }),
    ...(form.mobile === '' ? {} : { mobile_number: form.mobile }),
  };
  const note = messageOf(form.message);
  return {
    signer_id: form.signerId.trim(),
    ...(Object.keys(signer).length === 0 ? {} : { signer }),
    ...(form.byEmail || form.bySms ? { send_to: { email: form.byEmail, mobile_number: form.bySms } } : {}),
    ...(form.notify ? {} : { notify: false }),
    ...(note === null ? {} : { message: note }),
  };
};

/** Where the redirect after a replacement says what it did. */
const replacedDone = (replaced: string, signerId: string): string =>
  `?done=signer-replaced&replaced=${encodeURIComponent(replaced)}&signer_id=${encodeURIComponent(signerId)}`;

/** The notice after a replacement: only while the new signer is listed and the one replaced is not. */
export const replacedNotice = (ctx: Koa.Context, r: RequestView, problem: unknown): Html | '' => {
  const { done, replaced, signer_id: id } = ctx.query;
  if (problem || done !== 'signer-replaced' || typeof replaced !== 'string' || typeof id !== 'string')
    return '';
  const listed = (signerId: string) => r.signers.some((s) => s.signer_id === signerId);
  return listed(id) && !listed(replaced)
    ? html`<p class="success" role="status">Replaced ${replaced} with ${id}.</p>`
    : '';
};

/** A Request's page again, with the API's refusal of the replacement and the form as typed. */
export type RequestPageReplacing = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  id: string,
  problem?: ApiProblem,
  typed?: { readonly replacement?: ReplaceForm },
) => Promise<void>;

export const requestReplaceRoutes = (
  router: Router,
  deps: WebDeps,
  requestPage: RequestPageReplacing,
): void => {
  router.post('/requests/:id/replace-signer', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = replaceFormOf(fields);
    const body = replaceBodyOf(form);
    const done = await visitor.api({
      method: 'POST',
      path: `/v1.1/requests/${segment(id)}/signers/${segment(form.replaced)}/replace`,
      body,
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { replacement: form });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}${replacedDone(form.replaced, body.signer_id)}`);
  });
};
