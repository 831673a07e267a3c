import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { BulkSendView, CreateBulkSendBody, DomainEvent, FieldError } from '@esign/contracts';
import { progressOf, rowBody, rowErrors, type BulkRow } from '../domain/bulk-send.js';
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

export type BulkSendDeps = Pick<
  Deps,
  'store' | 'transact' | 'clock' | 'ids' | 'urlSigner' | 'publicBaseUrl' | 'codeHasher'
> & { readonly bulkSends: BulkSendStore; readonly sendAllowance: SendAllowance };

export const bulkSendView = (bulk: BulkSendRecord, rows: readonly BulkRow[]): BulkSendView => {
  const progress = progressOf(rows);
  return {
    id: bulk.id,
    site_id: bulk.siteId,
    state: bulk.state,
    send: bulk.send,
    test_mode: bulk.testMode,
    rows_total: bulk.rowsTotal,
    created: progress.created,
    sent: progress.sent,
    failed: progress.failed,
    failures: rows
      .filter((r) => r.status === 'failed')
      .map((r) => ({ row: r.row, request_id: r.requestId, errors: [...r.errors] })),
    requests: rows.flatMap((r) => (r.requestId === null ? [] : [{ row: r.row, request_id: r.requestId }])),
    created_at: bulk.createdAt,
    completed_at: bulk.completedAt,
  };
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
          TE.chainFirstW((outcome) =>
            // Every row failed to decode: nothing for the worker, so it is complete now.
            outcome.replayed || newRows.some((r) => r.status === 'pending')
              ? TE.right(undefined)
              : TE.rightTask(async () => {
                  await deps.bulkSends.completeIfDone(bulk.id, now, completedEvent(deps, bulk));
                }),
          ),
        );
      }),
    );

export const getBulkSend =
  (deps: Pick<BulkSendDeps, 'bulkSends'>) =>
  (input: { readonly caller: Caller; readonly bulkSendId: string }): TE.TaskEither<AppError, BulkSendView> =>
  async () => {
    const found = await deps.bulkSends.find(input.bulkSendId, siteIds(input.caller));
    return found === undefined
      ? E.left(notFound('bulk send'))
      : E.right(bulkSendView(found.bulk, found.rows));
  };

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

/**
 * One row: its Request created, then sent, each under an Idempotency-Key of the bulk id
 * and row number, so a repeat after a crash replays what committed instead of doing it
 * again. Answers undefined when another worker is on the row right now.
 */
const runRow = async (deps: BulkSendDeps, claimed: ClaimedRow): Promise<RowOutcome | undefined> => {
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
  // Paced by the token's money-costing bucket, like single sends: charged before the row is
  // made (a row repeated after a crash may be charged twice; it is sent once).
  if (bulk.send) {
    const allowance = await deps.sendAllowance({ tokenId: bulk.tokenId, testModeOnly: bulk.testModeOnly });
    if (allowance._tag === 'Wait') {
      await deps.bulkSends.release(bulk.id, row, allowance.seconds * 1000);
      return undefined;
    }
  }
  const created = await createRequest(deps)({
    caller,
    siteId: bulk.siteId,
    body,
    idempotency: key('create'),
  })();
  if (E.isLeft(created)) {
    if (created.left._tag === 'IdempotencyKeyInFlight') return undefined;
    return { status: 'failed', requestId: null, errors: refusal(row, created.left) };
  }
  const requestId = idOf(created.right.value);
  if (requestId === undefined)
    return {
      status: 'failed',
      requestId: null,
      errors: [{ path: at('rows', row), message: 'no Request id' }],
    };
  if (!bulk.send) return { status: 'created', requestId, errors: [] };
  const sent = await sendRequest(deps)({ caller, requestId, idempotency: key('send') })();
  if (E.isLeft(sent)) {
    if (sent.left._tag === 'IdempotencyKeyInFlight') return undefined;
    return { status: 'failed', requestId, errors: refusal(row, sent.left) };
  }
  return { status: 'sent', requestId, errors: [] };
};

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
  async (limit: number, leaseMs: number, concurrency = 1): Promise<number> => {
    const claimed = await deps.bulkSends.claim(limit, leaseMs);
    let settled = 0;
    let next = 0;
    // Rows are independent Requests: a few at once, each its own transactions.
    const worker = async (): Promise<void> => {
      for (let i = next++; i < claimed.length; i = next++) {
        const row = claimed[i]!;
        const outcome = await runRow(deps, row);
        if (outcome === undefined) continue;
        await deps.bulkSends.settle(row.bulk.id, row.row, outcome, isoNow(deps.clock));
        settled += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, claimed.length)) }, worker));
    const bulks = new Map(claimed.map((c) => [c.bulk.id, c.bulk]));
    for (const bulk of bulks.values())
      await deps.bulkSends.completeIfDone(bulk.id, isoNow(deps.clock), completedEvent(deps, bulk));
    return settled;
  };
