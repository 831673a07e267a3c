import { isoNow } from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { RequestView, SiteGrant } from '@esign/contracts';
import {
  type CreateRequestBody,
  type HistoryOrder,
  type RequestEventList,
  type RequestList,
  type SiteEventFeed,
} from '@esign/contracts';
import { createSignatureRequest } from '../domain/request-creation.js';
import type { Challenge } from '../domain/signer-authentication.js';
import type { FeedFrom, RequestFilter } from '../ports/request-repository.js';
import type { PageRequest } from '../ports/page.js';
import { reachSite, reachSiteToCreate, siteIds, type Caller } from './caller.js';
import { executionUrl, type Deps } from './deps.js';
import { encodeFeedCursor } from './feed-cursor.js';
import { notFound, type AppError } from './errors.js';
import { oneWriteIdempotently, type Idempotency, type Outcome } from './idempotency.js';
import { pageView } from './paging.js';
import { envelopes } from './events.js';
import { hashAccessCodes } from './signing/hash-access-codes.js';
import { requestView } from './views.js';

type CreateDeps = Pick<
  Deps,
  'transact' | 'autocommit' | 'clock' | 'ids' | 'urlSigner' | 'publicBaseUrl' | 'codeHasher'
>;

export const createRequest =
  (deps: CreateDeps) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly body: CreateRequestBody;
    readonly idempotency?: Idempotency;
    /** A bulk send's row (ADR 3510): the bulk send that makes it. */
    readonly bulkSendId?: string;
  }): TE.TaskEither<AppError, Outcome<RequestView>> =>
    pipe(
      TE.fromEither(reachSiteToCreate(input.caller, input.siteId, input.body.test_mode)),
      TE.bindTo('site'),
      TE.bindW('challenges', () => hashAccessCodes(deps)(input.body)),
      TE.chainW(({ site, challenges }) => createOn(deps, site, input, challenges)),
    );

/**
 * A new draft of `input.body` on `site` (which the caller may create on), its signers'
 * challenges made already, by body index: the create, and a copy (ADR 3330).
 */
export const createOn = (
  deps: CreateDeps,
  site: SiteGrant,
  input: {
    readonly caller: Caller;
    readonly body: CreateRequestBody;
    readonly idempotency?: Idempotency;
    /** A copy's source (ADR 3410). */
    readonly copiedFrom?: string;
    /** A bulk send's row's (ADR 3510). */
    readonly bulkSendId?: string;
  },
  challenges: ReadonlyMap<number, Challenge>,
): TE.TaskEither<AppError, Outcome<RequestView>> =>
  // Its one read locks nothing and its one write is atomic (ADR 2610): without a key, no
  // transaction (ADR 2640).
  oneWriteIdempotently(deps, site.id, input.idempotency, (store) =>
    pipe(
      store.creation.inputs(
        site.id,
        input.body.contracts,
        input.body.signers.map((s) => s.signer_id),
      ),
      TE.chainEitherKW(({ templates, storedContacts }) =>
        createSignatureRequest({
          id: deps.ids.requestId(),
          site,
          now: isoNow(deps.clock),
          body: input.body,
          templates,
          storedContacts,
          signerRefs: input.body.signers.map(() => deps.ids.signerRef()),
          creator: { userId: input.caller.sub, email: input.caller.email ?? null },
          ...(input.copiedFrom !== undefined && { copiedFrom: input.copiedFrom }),
          ...(input.bulkSendId !== undefined && { bulkSendId: input.bulkSendId }),
        }),
      ),
      // One write for all of it (ADR 2610): signers, Request, challenges, events.
      TE.chainFirstW((creation) =>
        store.creation.insert({
          siteSigners: creation.siteSigners,
          request: creation.request,
          challenges: [...challenges].map(([i, challenge]) => ({
            signerRef: creation.request.signers[i]!.signerRef,
            challenge,
          })),
          events: envelopes(
            { ids: deps.ids, executionUrl: executionUrl(deps) },
            creation.request,
            creation.events,
          ),
        }),
      ),
      TE.map((creation) => requestView(creation.request, executionUrl(deps))),
    ),
  );

export const getRequest =
  (deps: Pick<Deps, 'store' | 'urlSigner' | 'publicBaseUrl'>) =>
  (input: { readonly caller: Caller; readonly requestId: string }): TE.TaskEither<AppError, RequestView> =>
    pipe(
      deps.store.requests.find(input.requestId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('request'))),
      TE.map((request) => requestView(request, executionUrl(deps))),
    );

export const listRequests =
  (deps: Pick<Deps, 'store' | 'urlSigner' | 'publicBaseUrl'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly page: PageRequest;
    readonly filter: RequestFilter;
  }): TE.TaskEither<AppError, RequestList> =>
    pipe(
      TE.fromEither(reachSite(input.caller, input.siteId)),
      TE.chainW((site) => deps.store.requests.list(site.id, input.page, input.filter)),
      TE.map((page) => pageView(input.page, page, (r) => requestView(r, executionUrl(deps)))),
    );

/**
 * `GET /v1.1/requests/:id/events`: one page of the history of a Request of a site the
 * caller reaches (ADR 3170), oldest first, each entry as its webhooks carry it; with
 * `types`, of those types only (ADR 3540).
 */
export const listRequestEvents =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly requestId: string;
    readonly page: PageRequest;
    readonly order?: HistoryOrder;
    readonly types?: readonly string[];
  }): TE.TaskEither<AppError, RequestEventList> =>
    pipe(
      deps.store.requests.siteOf(input.requestId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('request'))),
      TE.chainW(() =>
        deps.store.requests.history(
          { requestId: input.requestId },
          input.page,
          input.order ?? 'asc',
          input.types,
        ),
      ),
      TE.map((page) => pageView(input.page, page, (entry) => entry)),
    );

/**
 * `GET /v1.1/sites/:id/events` (ADR 3190): the entries of the Site's Requests' histories
 * after a position, in the order their changes were stored (or before one, newest first),
 * with the cursors to read newer and older entries from.
 */
export const listSiteEvents =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly from: FeedFrom;
    readonly perPage: number;
    /** Only entries of these types; absent: all. */
    readonly types?: readonly string[];
  }): TE.TaskEither<AppError, SiteEventFeed> =>
    pipe(
      TE.fromEither(reachSite(input.caller, input.siteId)),
      TE.chainW((site) => deps.store.requests.siteHistory(site.id, input.from, input.perPage, input.types)),
      TE.map((feed) => ({
        data: [...feed.entries],
        has_more: feed.hasMore,
        next_after: encodeFeedCursor(feed.nextAfter),
        next_before: feed.nextBefore === undefined ? null : encodeFeedCursor(feed.nextBefore),
      })),
    );
