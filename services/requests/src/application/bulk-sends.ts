import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { BulkSendView, CreateBulkSendBody, DomainEvent, FieldError } from '@esign/contracts';
import { rowBody, rowErrors } from '../domain/bulk-send.js';
import { at } from '../domain/paths.js';
import type {
  BulkSendRecord,
  BulkSendStore,
  ClaimedRow,
  NewRow,
  RowOutcome,
} from '../ports/bulk-send-store.js';
import type { SendAllowance } from '../ports/send-allowance.js';
import { reachSiteToCreate, siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { transactIdempotently, type Idempotency, type Outcome } from './idempotency.js';
import { sendRequest } from './lifecycle.js';
import { createRequest } from './requests.js';
import { bulkSendView } from './views.js';

export type BulkSendDeps = Pick<
  Deps,
  'store' | 'transact' | 'autocommit' | 'clock' | 'ids' | 'urlSigner' | 'publicBaseUrl' | 'codeHasher'
> & {
  readonly bulkSends: BulkSendStore;
  readonly sendAllowance: SendAllowance;
  /** Told after a bulk send with rows to make commits, so a worker starts on it now (ADR 2680). */
  readonly rowsWaiting?: (() => void) | undefined;
};

/** The shared contracts must be this site's and published: else every row would fail the same way. */
const checkContracts = (
  deps: BulkSendDeps,
  siteId: number,
  contracts: readonly number[],
): TE.TaskEither<AppError, void> =>
  pipe(
    deps.store.templates.specs(siteId, contracts),
    TE.chainW((specs) => {
      const errors: FieldError[] = contracts.flatMap((id, i) => {
        const spec = specs.find((s) => s.id === id && s.siteId === siteId);
        if (spec === undefined)
          return [{ path: at('contracts', i), message: `no contract template ${id} on this site` }];
        return spec.state === 'published'
          ? []
          : [
              {
                path: at('contracts', i),
                message: `contract template ${id} is not published: publish it first`,
              },
            ];
      });
      return errors.length === 0
        ? TE.right(undefined)
        : TE.left<AppError>({ _tag: 'InvalidRequest', errors });
    }),
  );

/**
 * `POST /v1.1/sites/:id/bulk_sends`: checks the shared part, decodes each row on its own
 * (a row that does not decode is failed at once, naming `rows[i]…`), keeps the bulk send
 * and its rows in one transaction and answers at once; the worker makes the Requests.
 */
export const createBulkSend =
  (deps: BulkSendDeps) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly body: CreateBulkSendBody;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<BulkSendView>> =>
    pipe(
      TE.fromEither(reachSiteToCreate(input.caller, input.siteId, input.body.test_mode)),
      TE.chainFirstW((site) => checkContracts(deps, site.id, input.body.contracts)),
      TE.chainW((site) => {
        const { rows, ...shared } = input.body;
        const now = isoNow(deps.clock);
        const bulk: BulkSendRecord = {
          id: deps.ids.requestId(),
          siteId: site.id,
          siteName: site.name,
          callerSub: input.caller.sub,
          tokenId: input.caller.tokenId ?? input.caller.sub,
          testModeOnly: input.caller.testModeOnly === true,
          shared,
          send: shared.send ?? false,
          testMode: shared.test_mode ?? false,
          rowsTotal: rows.length,
          state: 'running',
          createdAt: now,
          completedAt: null,
        };
        const newRows: NewRow[] = rows.map((raw, row) =>
          pipe(
            rowBody(shared, row, raw),
            E.match(
              (errors): NewRow => ({ row, body: null, status: 'failed', errors }),
              (body): NewRow => ({ row, body, status: 'pending', errors: [] }),
            ),
          ),
        );
        const view = bulkSendView(
          bulk,
          newRows.map((r) => ({ row: r.row, status: r.status, requestId: null, errors: r.errors })),
        );
        return pipe(
          // The bulk send, its rows and the Idempotency-Key's answer commit together.
          transactIdempotently(deps.transact, site.id, input.idempotency, (store) =>
            pipe(
              store.bulkSends.insert(bulk, newRows),
              TE.map(() => view),
            ),
          ),
          TE.chainFirstW((outcome) => {
            if (outcome.replayed) return TE.right(undefined);
            if (newRows.some((r) => r.status === 'pending')) {
              deps.rowsWaiting?.();
              return TE.right(undefined);
            }
            // Every row failed to decode: nothing for the worker, so it is complete now.
            return deps.bulkSends.completeIfDone(bulk.id, now, completedEvent(deps, bulk));
          }),
        );
      }),
    );

export const getBulkSend =
  (deps: Pick<BulkSendDeps, 'bulkSends'>) =>
  (input: { readonly caller: Caller; readonly bulkSendId: string }): TE.TaskEither<AppError, BulkSendView> =>
    pipe(
      deps.bulkSends.find(input.bulkSendId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('bulk send'))),
      TE.map((found) => bulkSendView(found.bulk, found.rows)),
    );

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
    createRequest(deps)({ caller, siteId: bulk.siteId, body, idempotency: key('create') }),
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
  !claimed.bulk.send
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

const completedEvent =
  (deps: Pick<BulkSendDeps, 'ids' | 'clock'>, bulk: BulkSendRecord) =>
  (p: { total: number; created: number; sent: number; failed: number }): DomainEvent => ({
    id: deps.ids.eventId(),
    type: 'bulk_send.completed',
    occurred_at: isoNow(deps.clock),
    site_id: bulk.siteId,
    aggregate_id: bulk.id,
    ...(bulk.testMode && { test_mode: true as const }),
    data: { bulk_send_id: bulk.id, rows_total: p.total, created: p.created, sent: p.sent, failed: p.failed },
  });

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
