import * as A from 'fp-ts/lib/Array.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { BulkSendRequestsCancelled } from '@esign/contracts';
import type { BulkSendStore } from '../ports/bulk-send-store.js';
import { siteIds, type Caller } from './caller.js';
import { notFound, type AppError } from './errors.js';
import { cancelRequest, type TransitionDeps } from './lifecycle.js';

/** Requests cancelled at once: each is its own short transaction, so a few share the pool. */
const AT_ONCE = 4;

type Settled = 'cancelled' | 'closed';

/**
 * `POST /v1.1/bulk_sends/:id/cancel_requests` (ADR 3480): every Request the bulk send made
 * that is still a draft or sent is cancelled, each as its own cancel would (its own
 * transaction and `request.cancelled`, and with `notifySigners` its own notice to the
 * signers who had been told of it, ADR 3500). One closed already, or closed while this runs,
 * is counted and left. A running bulk send could still make Requests after this answered,
 * so it is refused until it completes. Repeating the call cancels what is still open.
 */
export const cancelBulkSendRequests =
  (deps: TransitionDeps & { readonly bulkSends: Pick<BulkSendStore, 'find'> }) =>
  (input: {
    readonly caller: Caller;
    readonly bulkSendId: string;
    /** Kept in each Request's `request.cancelled` (ADR 3500). */
    readonly reason?: string;
    /** Each sent Request's signers told of its cancel, as its own cancel would tell them (ADR 3500). */
    readonly notifySigners?: boolean;
  }): TE.TaskEither<AppError, BulkSendRequestsCancelled> => {
    const order = {
      ...(input.reason !== undefined && { reason: input.reason }),
      ...(input.notifySigners === true && { notifySigners: true }),
    };
    const cancelOne = (requestId: string): TE.TaskEither<AppError, Settled> =>
      pipe(
        cancelRequest(deps)({ caller: input.caller, requestId, order }),
        TE.map((): Settled => 'cancelled'),
        TE.orElse((error) =>
          // Completed, declined, cancelled or expired already, or past its expiry (the sweep
          // expires it); a test Request removed after its retention is gone as well.
          error._tag === 'StateConflict' || error._tag === 'RequestExpired' || error._tag === 'NotFound'
            ? TE.right<AppError, Settled>('closed')
            : TE.left(error),
        ),
      );
    return pipe(
      deps.bulkSends.find(input.bulkSendId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('bulk send'))),
      TE.filterOrElseW(
        ({ bulk }) => input.caller.testModeOnly !== true || bulk.testMode,
        (): AppError => ({ _tag: 'TestModeOnlyToken', on: 'real_request' }),
      ),
      TE.filterOrElseW(
        ({ bulk }) => bulk.state === 'completed',
        (): AppError => ({ _tag: 'BulkSendRunning' }),
      ),
      TE.chainW(({ bulk, rows }) => {
        // A failed row may name the Request it made (made, then not sent): that one is its too.
        const made = [...new Set(rows.flatMap((r) => (r.requestId === null ? [] : [r.requestId])))];
        return pipe(
          A.chunksOf(AT_ONCE)(made),
          A.traverse(TE.ApplicativeSeq)((batch) => A.traverse(TE.ApplicativePar)(cancelOne)(batch)),
          TE.map((settled) => {
            const cancelled = settled.flat().filter((s) => s === 'cancelled').length;
            return { bulk_send_id: bulk.id, cancelled, already_closed: made.length - cancelled };
          }),
        );
      }),
    );
  };
