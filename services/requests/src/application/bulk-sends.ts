import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type {
  BulkSendList,
  BulkSendView,
  CreateBulkSendBody,
  DomainEvent,
  FieldError,
} from '@esign/contracts';
import { rowBody, type Progress } from '../domain/bulk-send.js';
import { unusableForRequests } from '../domain/contract-template.js';
import { at } from '../domain/paths.js';
import type { BulkSendRecord, BulkSendStore, NewRow } from '../ports/bulk-send-store.js';
import type { SendAllowance } from '../ports/send-allowance.js';
import type { PageRequest } from '../ports/page.js';
import { reachSite, reachSiteToCreate, siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { transactIdempotently, type Idempotency, type Outcome } from './idempotency.js';
import { pageView } from './paging.js';
import { bulkSendSummary, bulkSendView } from './views.js';

export type BulkSendDeps = Pick<
  Deps,
  'store' | 'transact' | 'autocommit' | 'clock' | 'ids' | 'urlSigner' | 'publicBaseUrl' | 'codeHasher'
> & {
  readonly bulkSends: BulkSendStore;
  readonly sendAllowance: SendAllowance;
  /** Told after a bulk send with rows to make commits, so a worker starts on it now (ADR 2680). */
  readonly rowsWaiting?: (() => void) | undefined;
};

/** The shared contracts must be this site's, published and not archived: else every row would fail the same way. */
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
        const unusable = unusableForRequests(spec);
        return unusable === undefined ? [] : [{ path: at('contracts', i), message: unusable }];
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
          cancelledAt: null,
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

/** `GET /v1.1/sites/:id/bulk_sends` (ADR 3440): the Site's bulk sends, newest first; by state or template. */
export const listBulkSends =
  (deps: Pick<BulkSendDeps, 'bulkSends'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly page: PageRequest;
    readonly state?: BulkSendView['state'] | undefined;
    readonly contractId?: number | undefined;
    readonly createdFrom?: string | undefined;
    readonly createdBefore?: string | undefined;
  }): TE.TaskEither<AppError, BulkSendList> =>
    pipe(
      TE.fromEither(reachSite(input.caller, input.siteId)),
      TE.chainW((site) =>
        deps.bulkSends.list(site.id, input.page, {
          state: input.state,
          contractId: input.contractId,
          createdFrom: input.createdFrom,
          createdBefore: input.createdBefore,
        }),
      ),
      TE.map((page) => pageView(input.page, page, bulkSendSummary)),
    );

/**
 * `POST /v1.1/bulk_sends/:id/cancel` (ADR 3450): no more of its rows are made. The rows a
 * worker holds are its own to finish; when none is held, it completes now. Cancelling again
 * answers it as it is; one that completed without a cancel is a 409.
 */
export const cancelBulkSend =
  (deps: Pick<BulkSendDeps, 'bulkSends' | 'ids' | 'clock'>) =>
  (input: {
    readonly caller: Caller;
    readonly bulkSendId: string;
  }): TE.TaskEither<AppError, BulkSendView> => {
    const now = isoNow(deps.clock);
    return pipe(
      deps.bulkSends.cancel(input.bulkSendId, siteIds(input.caller), now),
      TE.chainW(TE.fromOption(() => notFound('bulk send'))),
      TE.chainW(({ bulk, outcome }) =>
        outcome === 'completed'
          ? TE.left<AppError>({ _tag: 'BulkSendCompleted' })
          : deps.bulkSends.completeIfDone(bulk.id, now, completedEvent(deps, bulk)),
      ),
      TE.chainW(() => getBulkSend(deps)(input)),
    );
  };

/** `bulk_send.completed` with the bulk send's counts, and its cancel when it had one, for the outbox. */
export const completedEvent =
  (deps: Pick<BulkSendDeps, 'ids' | 'clock'>, bulk: BulkSendRecord) =>
  (p: Progress & { readonly cancelledAt: string | null }): DomainEvent => ({
    id: deps.ids.eventId(),
    type: 'bulk_send.completed',
    occurred_at: isoNow(deps.clock),
    site_id: bulk.siteId,
    aggregate_id: bulk.id,
    ...(bulk.testMode && { test_mode: true as const }),
    data: {
      bulk_send_id: bulk.id,
      rows_total: p.total,
      created: p.created,
      sent: p.sent,
      failed: p.failed,
      ...(p.cancelledAt !== null && { cancelled: p.cancelled, cancelled_at: p.cancelledAt }),
    },
  });
