import type { KeyObject } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  CancelBulkSendRequestsBody,
  CreateBulkSendBody,
  PRINCIPAL_HEADER,
  type BulkSendList,
  type BulkSendRequestsCancelled,
  type BulkSendView,
} from '@esign/contracts';
import { decodeBody, integerIdParam, runWith, uuidParam, type AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { Caller } from '../../application/caller.js';
import type { AppError } from '../../application/errors.js';
import type { Idempotency, Outcome } from '../../application/idempotency.js';
import type { PageRequest } from '../../ports/page.js';
import { createdInterval, IDEMPOTENCY_HEADER, idempotencyOf, listQuery } from './params.js';
import { callerOf } from './principal.js';
import { problemOf } from './problems.js';

const run = runWith(problemOf);

const BULK_SEND_STATES = ['running', 'completed'] as const;

export interface BulkSendCases {
  readonly createBulkSend: (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly body: CreateBulkSendBody;
    readonly idempotency?: Idempotency;
  }) => TE.TaskEither<AppError, Outcome<BulkSendView>>;
  readonly listBulkSends: (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly page: PageRequest;
    readonly state?: BulkSendView['state'] | undefined;
    readonly contractId?: number | undefined;
    readonly createdFrom?: string | undefined;
    readonly createdBefore?: string | undefined;
  }) => TE.TaskEither<AppError, BulkSendList>;
  readonly cancelBulkSend: (input: {
    readonly caller: Caller;
    readonly bulkSendId: string;
  }) => TE.TaskEither<AppError, BulkSendView>;
  readonly getBulkSend: (input: {
    readonly caller: Caller;
    readonly bulkSendId: string;
  }) => TE.TaskEither<AppError, BulkSendView>;
  readonly cancelBulkSendRequests: (input: {
    readonly caller: Caller;
    readonly bulkSendId: string;
    readonly reason?: string;
    readonly notifySigners?: boolean;
  }) => TE.TaskEither<AppError, BulkSendRequestsCancelled>;
}

/**
 * Bulk send (issue #22, ADR 2201): `POST /v1.1/sites/:id/bulk_sends` answers 202 at once;
 * progress at `GET /v1.1/bulk_sends/:id`; the Site's bulk sends at `GET /v1.1/sites/:id/bulk_sends` (ADR 3440);
 * the rest of its rows left unmade with `POST /v1.1/bulk_sends/:id/cancel` (ADR 3450), and
 * the Requests it made cancelled with `POST /v1.1/bulk_sends/:id/cancel_requests` (ADR 3480).
 */
export const mountBulkSendRoutes = (
  router: Router<AppState>,
  cases: BulkSendCases,
  options: { readonly gatewayPublicKey: KeyObject },
): void => {
  const caller = (header: string) => callerOf(options.gatewayPublicKey, header || undefined);

  router.post('/v1.1/sites/:id/bulk_sends', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const siteId = integerIdParam(ctx.params.id, 'site');
    const body = decodeBody(CreateBulkSendBody, ctx);
    const idempotency = idempotencyOf(
      ctx.get(IDEMPOTENCY_HEADER) || undefined,
      ctx.method,
      ctx.path,
      (ctx.request as { body?: unknown }).body,
    );
    if (E.isLeft(idempotency)) throw idempotency.left;
    const outcome = await run(
      cases.createBulkSend({
        caller: who,
        siteId,
        body,
        ...(idempotency.right && { idempotency: idempotency.right }),
      }),
    );
    // A replay answers the stored view as it was given (ADR 0203).
    const id = (outcome.value as { id?: unknown }).id;
    ctx.status = 202;
    if (typeof id === 'string') ctx.set('Location', `/v1.1/bulk_sends/${id}`);
    if (outcome.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.body = outcome.value;
  });

  router.get('/v1.1/sites/:id/bulk_sends', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const siteId = integerIdParam(ctx.params.id, 'site');
    const { page, state, ids, times } = listQuery(ctx.query, BULK_SEND_STATES, {
      ids: ['contract_id'],
      times: ['created_from', 'created_before'],
    });
    const interval = createdInterval(times);
    ctx.body = await run(
      cases.listBulkSends({ caller: who, siteId, page, state, contractId: ids.contract_id, ...interval }),
    );
  });

  // No more rows made (ADR 3450): idempotent by nature, so no Idempotency-Key is needed.
  router.post('/v1.1/bulk_sends/:id/cancel', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const bulkSendId = uuidParam(ctx.params.id, 'bulk send');
    ctx.body = await run(cases.cancelBulkSend({ caller: who, bulkSendId }));
  });

  // Each open Request it made cancelled (ADR 3480); a repeat cancels what is still open, so no key.
  router.post('/v1.1/bulk_sends/:id/cancel_requests', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const bulkSendId = uuidParam(ctx.params.id, 'bulk send');
    const { reason, notify_signers } = decodeBody(CancelBulkSendRequestsBody, ctx);
    ctx.body = await run(
      cases.cancelBulkSendRequests({
        caller: who,
        bulkSendId,
        ...(reason !== undefined && { reason }),
        ...(notify_signers === true && { notifySigners: true }),
      }),
    );
  });

  router.get('/v1.1/bulk_sends/:id', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const bulkSendId = uuidParam(ctx.params.id, 'bulk send');
    ctx.body = await run(cases.getBulkSend({ caller: who, bulkSendId }));
  });
};
