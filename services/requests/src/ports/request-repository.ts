import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainEvent, HistoryOrder, WebhookPayload } from '@esign/contracts';
import type { RequestState, SignatureRequest, Transition } from '../domain/signature-request.js';
import type { CorrectionEvidence, SignerCorrectionRecord } from '../domain/signer-correction.js';
import type { PageOf, PageRequest } from './page.js';

/** What a list keeps: absent criteria keep everything. */
export interface RequestFilter {
  readonly state?: RequestState | undefined;
  /** Only test-mode Requests (true) or only real ones (false) (issue #22). */
  readonly testMode?: boolean | undefined;
  /** Only Requests naming this signer (ADR 3200). */
  readonly signerId?: string | undefined;
  /** Only Requests made with this template among their contracts (ADR 3340). */
  readonly contractId?: number | undefined;
  /** Only Requests that were sent, whatever became of them since (ADR 3780). */
  readonly sent?: true | undefined;
  /** Only the copies of this Request (ADR 3410). */
  readonly copiedFrom?: string | undefined;
  /** Only the Requests this bulk send made (ADR 3440). */
  readonly bulkSendId?: string | undefined;
  /** Only Requests created at or after this instant (UTC `…Z`, ADR 3370). */
  readonly createdFrom?: string | undefined;
  /** Only Requests created before this instant. */
  readonly createdBefore?: string | undefined;
  /** Only Requests whose title holds this text, in any case (ADR 3390). */
  readonly search?: string | undefined;
}

/**
 * A place in a Site's event feed (ADR 3190): the transaction that stored an entry, and the
 * entry's id within the history (both decimal strings; `0`, `0` is before the first).
 */
export interface FeedPosition {
  readonly txid: string;
  readonly id: string;
}

/**
 * Where a feed read starts: after a position, oldest first; or newest first, before a
 * position (absent: from the newest entry).
 */
export type FeedFrom =
  | { readonly order: 'asc'; readonly after: FeedPosition }
  | { readonly order: 'desc'; readonly before: FeedPosition | undefined };

/**
 * Entries in the order asked for, and whether more follow in that order. `nextAfter`:
 * the newest entry's position (or, with none, the one asked from); `nextBefore`: the
 * oldest entry's, undefined with none.
 */
export interface FeedPage {
  readonly entries: readonly WebhookPayload[];
  readonly nextAfter: FeedPosition;
  readonly nextBefore: FeedPosition | undefined;
  readonly hasMore: boolean;
}

/** Requests with their contracts, signers and fields. Every read is scoped by the caller's sites. */
/**
 * What a transition writes besides the Request: a signer added to a draft upserts the
 * Site's signer and may bring their challenge (ADR 3280); a signer who asked for their own
 * replacement (ADR 3560) is where the audit trail's record of it says they acted from.
 * Stored in the same statement.
 */
export type TransitionWrites = Pick<Transition, 'siteSigners' | 'challenges'> & {
  readonly askedFrom?: CorrectionEvidence;
};

/** Whose history: a Request's, or a template's of a Site (ADR 3720). */
export type HistoryOf =
  { readonly requestId: string } | { readonly contractId: number; readonly siteId: number };

export interface RequestRepository {
  /**
   * Marks a signer viewed with the evidence of their first opening; true only the first
   * time (a conditional update: concurrent openings record one).
   */
  readonly markViewed: (
    requestId: string,
    signerRef: string,
    evidence: { readonly at: string; readonly ip: string; readonly userAgent: string },
  ) => TE.TaskEither<never, boolean>;
  readonly find: (id: string, siteIds: readonly number[]) => TE.TaskEither<never, O.Option<SignatureRequest>>;
  /** Like `find`, holding the Request until the transaction ends, so transitions of one Request queue up. */
  readonly lock: (id: string, siteIds: readonly number[]) => TE.TaskEither<never, O.Option<SignatureRequest>>;
  /** The site of a Request the caller reaches, without locking it. */
  readonly siteOf: (id: string, siteIds: readonly number[]) => TE.TaskEither<never, O.Option<number>>;
  /**
   * Stores a transition of a Request read with `lock`: the Request's new state, those of
   * its signers that changed, and the events it publishes (the outbox), in one statement
   * (ADRs 2650, 2800).
   */
  readonly update: (
    previous: SignatureRequest,
    next: SignatureRequest,
    events: readonly DomainEvent[],
    writes?: TransitionWrites,
  ) => TE.TaskEither<never, void>;
  /**
   * Stores a transition as `update` does, of a Request read without a lock (`find`), and
   * only if it is still as `previous` was read: false, writing nothing, when anything
   * stored a transition of it in between (ADR 2800).
   */
  readonly updateIfCurrent: (
    previous: SignatureRequest,
    next: SignatureRequest,
    events: readonly DomainEvent[],
    writes?: TransitionWrites,
  ) => TE.TaskEither<never, boolean>;
  /**
   * Open Requests (draft or sent) whose `expires_at` is at or before `now`, locked, at
   * most `limit`; rows another transaction holds are skipped, so sweepers on several
   * replicas share the work.
   */
  readonly lockDueForExpiry: (
    now: string,
    limit: number,
  ) => TE.TaskEither<never, readonly SignatureRequest[]>;
  /**
   * Sent Requests whose automatic reminder is due (`next_reminder_at` at or before `now`),
   * locked, at most `limit`, the longest due first; rows another transaction holds are
   * skipped, so sweepers on several replicas share the work (ADR 3130).
   */
  readonly lockDueForReminder: (
    now: string,
    limit: number,
  ) => TE.TaskEither<never, readonly SignatureRequest[]>;
  /**
   * A Request by id alone, for a caller that proved it may see it without a site scope:
   * an Execution URL whose signature verified.
   */
  readonly findByVerifiedId: (id: string) => TE.TaskEither<never, O.Option<SignatureRequest>>;
  /** `findByVerifiedId`, holding the Request until the transaction ends (a signer's act). */
  readonly lockByVerifiedId: (id: string) => TE.TaskEither<never, O.Option<SignatureRequest>>;
  /**
   * One page of the Request's history (ADR 3170), in the order they were recorded or its
   * reverse: the events of it a client can subscribe to, as its webhooks carry them; with
   * `types`, only entries of those types, counted alone (ADR 3540). Or a template's: its
   * own entries of its Site's feed (ADRs 3700, 3720).
   * Unscoped: the caller found the Request or the template.
   */
  readonly history: (
    of: HistoryOf,
    page: PageRequest,
    order: HistoryOrder,
    types?: readonly string[],
  ) => TE.TaskEither<never, PageOf<WebhookPayload>>;
  /**
   * Up to `limit` entries of the Site's Requests' histories after `from.after`, in the
   * order their changes were stored (or, `desc`, before `from.before`, newest first), only
   * those that no change still in flight can precede (ADR 3190): a position once answered
   * is never passed by a later entry. With `types`, only entries of those types; reading
   * oldest first, `nextAfter` then passes the others read up to the end.
   */
  readonly siteHistory: (
    siteId: number,
    from: FeedFrom,
    limit: number,
    types?: readonly string[],
  ) => TE.TaskEither<never, FeedPage>;
  /** The corrections of the Request's signers (ADR 3140), oldest first, for the audit trail. */
  readonly corrections: (requestId: string) => TE.TaskEither<never, readonly SignerCorrectionRecord[]>;
  readonly list: (
    siteId: number,
    page: PageRequest,
    filter: RequestFilter,
  ) => TE.TaskEither<never, PageOf<SignatureRequest>>;
}
