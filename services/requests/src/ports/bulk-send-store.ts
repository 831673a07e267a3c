import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { CreateRequestBody, DomainEvent, FieldError } from '@esign/contracts';
import type { BulkRow, BulkShared, Progress, RowStatus } from '../domain/bulk-send.js';
import type { PageOf, PageRequest } from './page.js';

/** A bulk send as kept (issue #22, ADR 2201). */
export interface BulkSendRecord {
  readonly id: string;
  readonly siteId: number;
  readonly siteName: string;
  /** Who asked: its rows are created as that caller, test-only or not. */
  readonly callerSub: string;
  /** Its access token: each row's send is charged to that token's money-costing bucket. */
  readonly tokenId: string;
  readonly testModeOnly: boolean;
  readonly shared: BulkShared;
  readonly send: boolean;
  readonly testMode: boolean;
  readonly rowsTotal: number;
  readonly state: 'running' | 'completed';
  readonly createdAt: string;
  readonly completedAt: string | null;
  /** When it was cancelled (ADR 3450): no worker makes its rows from then on. */
  readonly cancelledAt: string | null;
}

/** A bulk send as its Site's list shows it (ADR 3440): its counts, and its templates by name. */
export interface ListedBulkSend {
  readonly bulk: Pick<
    BulkSendRecord,
    | 'id'
    | 'siteId'
    | 'state'
    | 'send'
    | 'testMode'
    | 'rowsTotal'
    | 'createdAt'
    | 'completedAt'
    | 'cancelledAt'
  >;
  readonly progress: Pick<Progress, 'created' | 'sent' | 'failed' | 'cancelled'>;
  readonly contracts: readonly { readonly id: number; readonly name: string }[];
}

export interface NewRow {
  readonly row: number;
  /** Null when the row itself did not decode (then `status` is failed). */
  readonly body: CreateRequestBody | null;
  readonly status: 'pending' | 'failed';
  readonly errors: readonly FieldError[];
}

/** A pending row handed to one worker until its lease ends. */
export interface ClaimedRow {
  readonly bulk: BulkSendRecord;
  readonly row: number;
  readonly body: CreateRequestBody;
}

export interface RowOutcome {
  readonly status: Exclude<RowStatus, 'pending'>;
  readonly requestId: string | null;
  readonly errors: readonly FieldError[];
}

/** Writes a bulk send with every row, inside a unit of work (with its Idempotency-Key's answer). */
export interface BulkSendWriter {
  readonly insert: (bulk: BulkSendRecord, rows: readonly NewRow[]) => TE.TaskEither<never, void>;
}

/**
 * Bulk sends and their rows, which are also the work queue. An outage rejects: a worker's
 * claimed rows then wait for their lease to end and are tried again.
 */
export interface BulkSendStore {
  readonly find: (
    id: string,
    siteIds: readonly number[],
  ) => TE.TaskEither<never, O.Option<{ readonly bulk: BulkSendRecord; readonly rows: readonly BulkRow[] }>>;
  /**
   * A Site's bulk sends, newest first (ADR 3440): of `state` only when given, only those
   * naming the template `contractId` among their contracts when given, and only those
   * started at or after `createdFrom` and before `createdBefore` when given (ISO instants).
   */
  readonly list: (
    siteId: number,
    page: PageRequest,
    filter: {
      readonly state?: BulkSendRecord['state'] | undefined;
      readonly contractId?: number | undefined;
      readonly createdFrom?: string | undefined;
      readonly createdBefore?: string | undefined;
    },
  ) => TE.TaskEither<never, PageOf<ListedBulkSend>>;
  /**
   * Cancels a bulk send of the Sites (ADR 3450), under its lock: sets `cancelledAt` once and
   * marks `cancelled` each pending row no worker holds. A row held (being made, or paced) is
   * left to its worker, which makes one it took before the cancel and cancels one it takes
   * after. Answers the bulk send as it is now and whether it is cancelled (`cancelled`, also
   * when it was already) or had completed without it (`completed`); none when it is unknown.
   */
  readonly cancel: (
    id: string,
    siteIds: readonly number[],
    at: string,
  ) => TE.TaskEither<
    never,
    O.Option<{ readonly bulk: BulkSendRecord; readonly outcome: 'cancelled' | 'completed' }>
  >;
  /** Up to `limit` pending rows no other worker holds, oldest bulk send first, each leased for `leaseMs`. */
  readonly claim: (limit: number, leaseMs: number) => TE.TaskEither<never, readonly ClaimedRow[]>;
  /**
   * How long until the next pending row can be claimed, in ms on the database's clock: a
   * paced row given back, or a claimed one whose lease runs out (its worker died). Null when
   * no row is pending; 0 or less when one can be claimed now.
   */
  readonly nextDueInMs: () => TE.TaskEither<never, number | null>;
  /** Gives a claimed row back untouched, to be claimed again no sooner than `afterMs` from now. */
  readonly release: (bulkId: string, row: number, afterMs: number) => TE.TaskEither<never, void>;
  /** A row's outcome; only a pending row changes (a late repeat changes nothing). */
  readonly settle: (
    bulkId: string,
    row: number,
    outcome: RowOutcome,
    at: string,
  ) => TE.TaskEither<never, void>;
  /**
   * Marks the bulk send completed when no row is pending, writing the event built from its
   * final counts to the outbox in the same transaction; true when this call completed it.
   */
  readonly completeIfDone: (
    bulkId: string,
    at: string,
    event: (progress: Progress & { readonly cancelledAt: string | null }) => DomainEvent,
  ) => TE.TaskEither<never, boolean>;
}
