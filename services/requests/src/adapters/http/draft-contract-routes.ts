import { AddRequestContractBody, ReorderRequestContractsBody } from '@esign/contracts';
import { integerIdParam, uuidParam, type AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { UseCases } from '../../application/use-cases.js';
import type { Authed } from './contract-routes.js';
import { answer, bodyOf, idempotencyFrom, run } from './route-helpers.js';

/**
 * A draft's contracts: one more, last, or one fewer (ADR 3300), or all of them in a new
 * order (ADR 3310); each answers the Request.
 */
export const mountDraftContractRoutes = (router: Router<AppState>, cases: UseCases, authed: Authed): void => {
  router.post(
    '/v1.1/requests/:id/contracts',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const { contract_id: contractId } = bodyOf(AddRequestContractBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const added = cases.addRequestContract({
        caller,
        requestId,
        contractId,
        ...(idempotency && { idempotency }),
      });
      answer(ctx, 201, await run(added));
    }),
  );
  // …and in a new order (ADR 3310).
  router.put(
    '/v1.1/requests/:id/contracts',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const { contract_ids: contractIds } = bodyOf(ReorderRequestContractsBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const reordered = cases.reorderRequestContracts({
        caller,
        requestId,
        contractIds,
        ...(idempotency && { idempotency }),
      });
      answer(ctx, 200, await run(reordered));
    }),
  );
  router.delete(
    '/v1.1/requests/:id/contracts/:contract_id',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const contractId = integerIdParam(ctx.params.contract_id, 'contract on this Request');
      const idempotency = idempotencyFrom(ctx);
      const removed = cases.removeRequestContract({
        caller,
        requestId,
        contractId,
        ...(idempotency && { idempotency }),
      });
      answer(ctx, 200, await run(removed));
    }),
  );
};
