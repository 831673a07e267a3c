import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { RequestView, SiteSignerView } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { posted } from '../guard.js';
import { segment } from './common.js';
import { requestPage } from './request-page.js';
import { contactFormOf, SENT_MEANWHILE, siteDetailsOf, wasOf } from './request-signer-contact.js';

/**
 * **Correct contact** on a draft (ADR 3200). Its signer's address and number are the
 * Site's record, which every draft reads until it is sent
 * (`PUT /v1.1/sites/:id/signers/:signer_id`); the channels are this Request's own
 * (`PATCH /v1.1/requests/:id/signers/:signer_id` with `send_to`). The address goes first,
 * so a refused one changes nothing; the channels can then only be refused if the Request
 * was sent in between.
 */
export const draftContactRoutes = (router: Router, deps: WebDeps): void => {
  router.post('/requests/:id/draft-signer-contact', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form = contactFormOf(fields);
    const found = await visitor.api({
      method: 'GET',
      path: `/v1.1/requests/${segment(id)}`,
      codec: RequestView,
    });
    if (E.isLeft(found)) return requestPage(ctx, deps, visitor, id, found.left);
    // Sent meanwhile: the Site's record no longer reaches this Request's signer.
    if (found.right.state !== 'draft') return requestPage(ctx, deps, visitor, id, SENT_MEANWHILE);
    const was = wasOf(fields);
    const details = siteDetailsOf(form, fields);
    let addressChanged = false;
    if (Object.keys(details).length > 0) {
      const put = await visitor.api({
        method: 'PUT',
        path: `/v1.1/sites/${found.right.site_id}/signers/${segment(form.signerId)}`,
        body: { signer: details },
        codec: SiteSignerView,
      });
      if (E.isLeft(put)) return requestPage(ctx, deps, visitor, id, put.left, { correction: form });
      addressChanged =
        (put.right.email ?? '') !== was.email || (put.right.mobile_number ?? '') !== was.mobile;
    }
    const channelsChanged = form.byEmail !== was.byEmail || form.bySms !== was.bySms;
    if (channelsChanged) {
      const patched = await visitor.api({
        method: 'PATCH',
        path: `/v1.1/requests/${segment(id)}/signers/${segment(form.signerId)}`,
        body: { send_to: { email: form.byEmail, mobile_number: form.bySms } },
        codec: RequestView,
        ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
      });
      if (E.isLeft(patched)) return requestPage(ctx, deps, visitor, id, patched.left, { correction: form });
    }
    const done = addressChanged ? 'draft-contact' : channelsChanged ? 'draft-channels' : 'contact-same';
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${segment(id)}?done=${done}`);
  });
};
