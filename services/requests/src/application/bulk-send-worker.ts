import { isoNow } from '@esign/contracts';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { FieldError } from '@esign/contracts';
import { rowErrors } from '../domain/bulk-send.js';
import { at } from '../domain/paths.js';
import type { ClaimedRow, RowOutcome } from '../ports/bulk-send-store.js';
import { completedEvent, type BulkSendDeps } from './bulk-sends.js';
import type { Caller } from './caller.js';
import type { AppError } from './errors.js';
import { sendRequest } from './lifecycle.js';
import { createRequest } from './requests.js';

/*
 * The bulk-send worker's step (ADR 2201): each claimed row made into its Request through
 * the ordinary create and send use cases, paced, and recorded.
 */

const idOf = (value: unknown): string | undefined => {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
};

/** A refusal as the row's errors, at `rows[i]…` like the create it stood for. */
const refusal = (row: number, error: AppError): FieldError[] => {
  switch (error._tag) {
    case 'InvalidRequest':
      return rowErrors(row, error.errors);
    case 'SendPreconditionsFailed':
      return error.missing.flatMap((m) =>
        m._tag === 'UnassignedFields'
          ? m.fields.map((f) => ({
              path: `${at('rows', row)}.fields`,
              message: `field "${f.name}" is not assigned to a signer, so the Request was not sent`,
            }))
          : [{ path: at('rows', row), message: 'the Request needs a contract and a signer to be sent' }],
      );
    default:
      return [{ path: at('rows', row), message: `refused: ${error._tag}` }];
  }
};

/** A refused create or send as the row's outcome; none while another worker is on the row right now. */
const refused =
  (row: number, requestId: string | null) =>
  (error: AppError): TE.TaskEither<never, O.Option<RowOutcome>> =>
    TE.right(
      error._tag === 'IdempotencyKeyInFlight'
        ? O.none
        : O.some({ status: 'failed', requestId, errors: refusal(row, error) }),
    );

/**
 * One row: its Request created, then sent, each under an Idempotency-Key of the bulk id
 * and row number, so a repeat after a crash replays what committed instead of doing it
 * again. Answers none when another worker is on the row right now.
 */
const makeRow = (deps: BulkSendDeps, claimed: ClaimedRow): TE.TaskEither<never, O.Option<RowOutcome>> => {
  const { bulk, row, body } = claimed;
  const caller: Caller = {
    sub: bulk.callerSub,
    sites: [{ id: bulk.siteId, name: bulk.siteName }],
    testModeOnly: bulk.testModeOnly,
  };
  const key = (step: string) => {
    const text = `bulk:${bulk.id}:${row}:${step}`;
    return { key: text, fingerprint: text };
  };
  return pipe(
    createRequest(deps)({
      caller,
      siteId: bulk.siteId,
      body,
      idempotency: key('create'),
      bulkSendId: bulk.id,
    }),
    TE.chainW((created): TE.TaskEither<never, O.Option<RowOutcome>> => {
      const requestId = idOf(created.value);
      if (requestId === undefined)
        return TE.right(
          O.some({
            status: 'failed',
            requestId: null,
            errors: [{ path: at('rows', row), message: 'no Request id' }],
          }),
        );
      if (!bulk.send) return TE.right(O.some({ status: 'created', requestId, errors: [] }));
      return pipe(
        sendRequest(deps)({ caller, requestId, idempotency: key('send') }),
        TE.map((): O.Option<RowOutcome> => O.some({ status: 'sent', requestId, errors: [] })),
        TE.orElse(refused(row, requestId)),
      );
    }),
    TE.orElse(refused(row, null)),
  );
};

/**
 * A row paced by the token's money-costing bucket, like single sends: charged before the
 * row is made (a row repeated after a crash may be charged twice; it is sent once). A row
 * that must wait is given back, to be claimed again once the bucket has refilled.
 */
const runRow = (deps: BulkSendDeps, claimed: ClaimedRow): TE.TaskEither<never, O.Option<RowOutcome>> =>
  // Taken after its bulk send was cancelled (a row paced or leased at the cancel): left unmade (ADR 3450).
  claimed.bulk.cancelledAt !== null
    ? TE.right(O.some({ status: 'cancelled', requestId: null, errors: [] }))
    : !claimed.bulk.send
      ? makeRow(deps, claimed)
      : pipe(
          deps.sendAllowance({ tokenId: claimed.bulk.tokenId, testModeOnly: claimed.bulk.testModeOnly }),
          TE.chain((allowance) =>
            allowance._tag === 'Wait'
              ? pipe(
                  deps.bulkSends.release(claimed.bulk.id, claimed.row, allowance.seconds * 1000),
                  TE.map((): O.Option<RowOutcome> => O.none),
                )
              : makeRow(deps, claimed),
          ),
        );

/** Runs and records one row; answers 1 when it settled, 0 when it was left pending. */
const settleRow = (deps: BulkSendDeps, claimed: ClaimedRow): TE.TaskEither<never, number> =>
  pipe(
    runRow(deps, claimed),
    TE.chain(
      O.match(
        () => TE.right(0),
        (outcome) =>
          pipe(
            deps.bulkSends.settle(claimed.bulk.id, claimed.row, outcome, isoNow(deps.clock)),
            TE.map(() => 1),
          ),
      ),
    ),
  );

/**
 * The worker's step (every replica runs it): claims up to `limit` pending rows, makes each
 * into its Request, records the outcome, and completes the bulk sends left with nothing
 * pending (`bulk_send.completed` through the outbox). Answers how many rows it settled.
 */
export const processBulkRows =
  (deps: BulkSendDeps) =>
  (limit: number, leaseMs: number, concurrency = 1): TE.TaskEither<never, number> =>
    pipe(
      deps.bulkSends.claim(limit, leaseMs),
      TE.chain((claimed) => {
        let next = 0;
        // Rows are independent Requests: a few lanes at once, each taking the next row, each
        // row its own transactions.
        const lane: TE.TaskEither<never, number> = () => {
          const row = claimed[next++];
          return row === undefined
            ? TE.right(0)()
            : pipe(
                settleRow(deps, row),
                TE.chain((n) =>
                  pipe(
                    lane,
                    TE.map((m) => n + m),
                  ),
                ),
              )();
        };
        const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, claimed.length)) }, () => lane);
        const bulks = [...new Map(claimed.map((c) => [c.bulk.id, c.bulk])).values()];
        return pipe(
          TE.sequenceArray(lanes),
          TE.map((settled) => settled.reduce((sum, n) => sum + n, 0)),
          TE.chainFirst(() =>
            pipe(
              bulks,
              TE.traverseSeqArray((bulk) =>
                deps.bulkSends.completeIfDone(bulk.id, isoNow(deps.clock), completedEvent(deps, bulk)),
              ),
            ),
          ),
        );
      }),
    );
