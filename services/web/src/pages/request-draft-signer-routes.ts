import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { RequestView } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { posted, WebError } from '../guard.js';
import { segment } from './common.js';
import { addSignerBodyOf, addSignerFormOf, signerDone } from './request-draft-signers.js';
import { requestPage } from './request-page.js';
import { typedProblem } from './request-settings.js';
import { settingsDone, signerSettingsBodyOf, signerSettingsFormOf } from './request-signer-settings.js';

/**
 * A draft's **Add a signer** and each signer's **Remove** (ADR 3280), and each signer's
 * **Signing settings** (ADR 3290, only what changed, nothing when nothing did): one API call each,
 * with the form's Idempotency-Key; the answer is a redirect to the Request's page, which
 * says what was done, or the page again with the refusal (the typed form kept).
 */
export const draftSignerRoutes = (router: Router, deps: WebDeps): void => {
  router.post('/requests/:id/add-signer', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = addSignerFormOf(fields);
    const typed = { addSigner: form };
    const { body, errors } = addSignerBodyOf(form);
    if (errors.size > 0) return requestPage(ctx, deps, visitor, id, typedProblem(errors), typed);
    const done = await visitor.api({
      method: 'POST',
      path: `/v1.1/requests/${segment(id)}/signers`,
      body,
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, typed);
    // The new signer is last, under the id the API keeps.
    const added = done.right.signers[done.right.signers.length - 1]?.signer_id ?? body.signer_id;
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}${signerDone('signer-added', added)}`);
  });

  router.post('/requests/:id/remove-signer', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const signerId = fields.signer_id ?? '';
    if (signerId === '')
      throw new WebError(400, 'This form is incomplete. Go back, reload the page and try again.');
    const key = fields.idempotency_key ?? '';
    const done = await visitor.api({
      method: 'DELETE',
      path: `/v1.1/requests/${segment(id)}/signers/${segment(signerId)}`,
      codec: RequestView,
      ...(key === '' ? {} : { idempotencyKey: key }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { removal: signerId });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}${signerDone('signer-removed', signerId)}`);
  });

  router.post('/requests/:id/signer-settings', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = signerSettingsFormOf(fields);
    if (form.signerId === '')
      throw new WebError(400, 'This form is incomplete. Go back, reload the page and try again.');
    const typed = { signerSettings: form };
    const { body, errors } = signerSettingsBodyOf(form, fields);
    if (errors.size > 0) return requestPage(ctx, deps, visitor, id, typedProblem(errors), typed);
    if (Object.keys(body).length === 0) {
      ctx.status = 303;
      return ctx.redirect(`${deps.base}/requests/${segment(id)}${settingsDone(true, form.signerId)}`);
    }
    const done = await visitor.api({
      method: 'PATCH',
      path: `/v1.1/requests/${segment(id)}/signers/${segment(form.signerId)}`,
      body,
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, typed);
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}${settingsDone(false, form.signerId)}`);
  });
};
