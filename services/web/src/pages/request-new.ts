import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { RequestView, type ContractSummary } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { visitorOf, type Visitor, type WebDeps } from '../context.js';
import { posted, WebError } from '../guard.js';
import { siteWithContracts } from './bulk-sends.js';
import { placeErrors } from './request-new-errors.js';
import { newRequestPage } from './request-new-form.js';
import {
  blankForm,
  bodyOf,
  fieldChoices,
  formOf,
  KEY,
  withAnotherSigner,
  type NewRequestForm,
} from './request-new-input.js';
import { requestPage } from './request-page.js';

/**
 * New Request (`/app/requests/new`): one Request on the current Site from its published
 * templates, made with `POST /v1.1/sites/:id/requests` and, with Send now, sent at once.
 * The form carries an Idempotency-Key made when it was shown, so a second click (or a
 * reload of the answer) makes no second Request and sends nothing twice.
 */
export const requestNewRoutes = (router: Router, deps: WebDeps): void => {
  const withContracts = (ctx: Koa.Context, visitor: Visitor) => siteWithContracts(ctx, deps, visitor);

  const show = (
    ctx: Koa.Context,
    visitor: Visitor,
    loaded: { site: { name: string }; contracts: ContractSummary[] },
    form: NewRequestForm,
    more: { errors?: Map<string, string>; problem?: ApiProblem; elsewhere?: ApiProblem['errors'] } = {},
  ) =>
    newRequestPage(ctx, deps, visitor, {
      siteName: loaded.site.name,
      contracts: loaded.contracts,
      choices: fieldChoices(loaded.contracts),
      form,
      ...(more.errors ? { errors: more.errors } : {}),
      ...(more.elsewhere ? { elsewhere: more.elsewhere } : {}),
      ...(more.problem ? { problem: more.problem } : {}),
    });

  router.get('/requests/new', async (ctx) => {
    const visitor = await visitorOf(ctx, deps);
    const loaded = visitor && (await withContracts(ctx, visitor));
    if (visitor && loaded) show(ctx, visitor, loaded, blankForm(randomUUID()));
  });

  router.post('/requests/new', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const form = formOf(fields);
    if (!KEY.test(form.idempotencyKey))
      throw new WebError(400, 'This form is incomplete. Open New Request again.');
    const loaded = await withContracts(ctx, visitor);
    if (loaded === undefined) return;
    // **Add a signer**: the same form, one row longer, with the new row in view.
    if (fields.add_signer === '1') return show(ctx, visitor, loaded, withAnotherSigner(form));
    const { body, sent, errors } = bodyOf(form, loaded.contracts);
    if (errors.size > 0) return show(ctx, visitor, loaded, form, { errors });
    const made = await visitor.api({
      method: 'POST',
      path: `/v1.1/sites/${loaded.site.id}/requests`,
      body,
      idempotencyKey: form.idempotencyKey,
      codec: RequestView,
    });
    if (E.isLeft(made)) {
      const { placed, elsewhere } = placeErrors(made.left.errors ?? [], sent, fieldChoices(loaded.contracts));
      // The same key with another body is refused: the next try is a new Request.
      const again =
        made.left.code === 'idempotency_key_reused' ? { ...form, idempotencyKey: randomUUID() } : form;
      return show(ctx, visitor, loaded, again, { errors: placed, elsewhere, problem: made.left });
    }
    const id = made.right.id;
    if (form.sendNow) {
      // Its own key, derived from the form's: a second click replays the send as well.
      const sentNow = await visitor.api({
        method: 'POST',
        path: `/v1.1/requests/${id}/send`,
        idempotencyKey: `${form.idempotencyKey}-send`,
        codec: RequestView,
      });
      if (E.isLeft(sentNow)) {
        const why = sentNow.left;
        return requestPage(ctx, deps, visitor, id, {
          ...why,
          title: 'Created, not sent',
          detail: `The Request was created, but it was not sent: ${why.detail ?? why.title}`,
        });
      }
    }
    ctx.status = 303;
    ctx.redirect(
      `${deps.base}/requests/${encodeURIComponent(id)}?done=${form.sendNow ? 'created-sent' : 'created'}`,
    );
  });
};
