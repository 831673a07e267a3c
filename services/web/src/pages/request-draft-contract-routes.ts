import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { RequestView } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { posted, WebError } from '../guard.js';
import { segment } from './common.js';
import { cannotMove, directionOf, movedDone, orderToPut, shownOrderOf } from './request-contract-order.js';
import { contractDone, contractIdOf, type ContractForm } from './request-draft-contracts.js';
import { requestPage } from './request-page.js';
import { typedProblem } from './request-settings.js';

/**
 * A draft's **Add a contract** and each contract's **Remove** (ADR 3300), **Move up** and
 * **Move down** (ADR 3310, the order from the draft as read now): one API call each,
 * with the form's Idempotency-Key; the answer is a redirect to the Request's page, which
 * says what was done, or the page again with the refusal (the choice kept).
 */
export const draftContractRoutes = (router: Router, deps: WebDeps): void => {
  router.post('/requests/:id/add-contract', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const form: ContractForm = {
      kind: 'add',
      idempotencyKey: fields.idempotency_key ?? '',
      contractId: (fields.contract_id ?? '').trim(),
    };
    const contractId = contractIdOf(form.contractId);
    if (contractId === undefined) {
      const errors = new Map([['contract_id', 'Choose one of the templates listed.']]);
      return requestPage(ctx, deps, visitor, id, typedProblem(errors), { contract: form });
    }
    const done = await visitor.api({
      method: 'POST',
      path: `/v1.1/requests/${segment(id)}/contracts`,
      body: { contract_id: contractId },
      codec: RequestView,
      ...(form.idempotencyKey === '' ? {} : { idempotencyKey: form.idempotencyKey }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { contract: form });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}${contractDone('contract-added', contractId)}`);
  });

  router.post('/requests/:id/remove-contract', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const contractId = contractIdOf(fields.contract_id);
    if (contractId === undefined)
      throw new WebError(400, 'This form is incomplete. Go back, reload the page and try again.');
    const key = fields.idempotency_key ?? '';
    const done = await visitor.api({
      method: 'DELETE',
      path: `/v1.1/requests/${segment(id)}/contracts/${String(contractId)}`,
      codec: RequestView,
      ...(key === '' ? {} : { idempotencyKey: key }),
    });
    if (E.isLeft(done))
      return requestPage(ctx, deps, visitor, id, done.left, { contract: { kind: 'remove', contractId } });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/requests/${done.right.id}${contractDone('contract-removed', contractId)}`);
  });

  router.post('/requests/:id/move-contract', async (ctx) => {
    const posting = await posted(ctx, deps);
    if (posting === undefined) return;
    const { visitor, fields } = posting;
    const id = ctx.params.id!;
    const contractId = contractIdOf(fields.contract_id);
    const direction = directionOf(fields.direction);
    if (contractId === undefined || direction === undefined)
      throw new WebError(400, 'This form is incomplete. Go back, reload the page and try again.');
    const form: ContractForm = { kind: 'move', contractId, direction };
    const found = await visitor.api({
      method: 'GET',
      path: `/v1.1/requests/${segment(id)}`,
      codec: RequestView,
    });
    if (E.isLeft(found)) return requestPage(ctx, deps, visitor, id, found.left, { contract: form });
    const current = found.right.contracts;
    const order = orderToPut(current, shownOrderOf(fields.order), contractId, direction);
    if (order === undefined) {
      const refused = cannotMove(current.includes(contractId), direction);
      return requestPage(ctx, deps, visitor, id, refused, { contract: form });
    }
    const key = fields.idempotency_key ?? '';
    const done = await visitor.api({
      method: 'PUT',
      path: `/v1.1/requests/${segment(id)}/contracts`,
      body: { contract_ids: order },
      codec: RequestView,
      ...(key === '' ? {} : { idempotencyKey: key }),
    });
    if (E.isLeft(done)) return requestPage(ctx, deps, visitor, id, done.left, { contract: form });
    ctx.status = 303;
    ctx.redirect(
      `${deps.base}/requests/${done.right.id}${movedDone(direction, contractId, done.right.contracts)}`,
    );
  });
};
