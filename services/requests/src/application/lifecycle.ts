import { isoNow } from '@esign/contracts';
import type * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { RequestView, SignerAuthentication } from '@esign/contracts';
import {
  cancel,
  expire,
  reissueLink,
  remind,
  send,
  type SignatureRequest,
  type Transition,
  type TransitionError,
} from '../domain/signature-request.js';
import type { CancelOrder } from '../domain/signer-notices.js';
import { remindAutomatically } from '../domain/automatic-reminder.js';
import {
  correctSigner,
  type SignerCorrection,
  type SignerCorrectionOrder,
} from '../domain/signer-correction.js';
import { challengeFor } from './signing/hash-access-codes.js';
import type { Store } from '../ports/store.js';
import { siteIds, type Caller } from './caller.js';
import { executionUrl, requestPageUrl, type Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { envelopes } from './events.js';
import { idempotently, type Idempotency, type Outcome } from './idempotency.js';
import { requestView } from './views.js';

type Apply = (request: SignatureRequest, now: string) => E.Either<TransitionError, Transition>;

export interface TransitionInput {
  readonly caller: Caller;
  readonly requestId: string;
  readonly idempotency?: Idempotency;
}

/** Reads of a Request without a lock whose write found it changed, before queueing for the lock (ADR 2800). */
export const OPTIMISTIC_ATTEMPTS = 3;

export type TransitionDeps = Pick<
  Deps,
  'transact' | 'autocommit' | 'clock' | 'ids' | 'urlSigner' | 'publicBaseUrl'
>;

/**
 * One transition of one Request, stored in one statement with its events, so an event
 * exists exactly when its change committed. A refusal changes nothing.
 *
 * Without an Idempotency-Key the Request is read without a lock and the transition is
 * written only if the Request is still as it was read (ADR 2800): two round trips and no
 * transaction. When something stored a transition of it in between, the call reads it
 * again and decides on what is there now, as if it had queued behind that one; after
 * `OPTIMISTIC_ATTEMPTS` such misses it does queue, on the lock. With a key the Request is
 * locked (concurrent transitions queue up and the later ones see the result of the
 * earlier), since the key's claim and its stored answer share the transaction.
 */
export const transition =
  (deps: TransitionDeps, apply: Apply) =>
  (input: TransitionInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    // One instance for the call: the answer and the events carry the same links, each signed once.
    const urls = executionUrl(deps);
    const decide = (found: TE.TaskEither<never, O.Option<SignatureRequest>>) =>
      pipe(
        found,
        TE.chainW(TE.fromOption(() => notFound('request'))),
        // A test-only token acts on test Requests only: its sends draw on the test
        // bucket at the gateway, so a real one must not go out through it (ADR 2200).
        TE.filterOrElseW(
          (previous) => input.caller.testModeOnly !== true || previous.testMode,
          (): AppError => ({ _tag: 'TestModeOnlyToken', on: 'real_request' }),
        ),
        TE.chainW((previous) =>
          pipe(
            TE.fromEither(apply(previous, isoNow(deps.clock))),
            TE.map((t) => ({
              previous,
              request: t.request,
              events: envelopes({ ids: deps.ids, executionUrl: urls }, t.request, t.events),
              writes: { siteSigners: t.siteSigners, challenges: t.challenges },
            })),
          ),
        ),
      );
    const view = (request: SignatureRequest) => requestView(request, urls);

    const locked = (store: Store, sites: readonly number[]): TE.TaskEither<AppError, RequestView> =>
      pipe(
        decide(store.requests.lock(input.requestId, sites)),
        TE.chainFirstW((t) => store.requests.update(t.previous, t.request, t.events, t.writes)),
        TE.map((t) => view(t.request)),
      );

    const unlocked = (attemptsLeft: number): TE.TaskEither<AppError, RequestView> =>
      attemptsLeft === 0
        ? deps.transact((store) => locked(store, siteIds(input.caller)))
        : pipe(
            deps.autocommit((store) =>
              pipe(
                decide(store.requests.find(input.requestId, siteIds(input.caller))),
                TE.chainW((t) =>
                  pipe(
                    store.requests.updateIfCurrent(t.previous, t.request, t.events, t.writes),
                    TE.map((stored) => (stored ? O.some(view(t.request)) : O.none)),
                  ),
                ),
              ),
            ),
            TE.chain(O.match(() => unlocked(attemptsLeft - 1), TE.right)),
          );

    if (input.idempotency === undefined)
      return pipe(
        unlocked(OPTIMISTIC_ATTEMPTS),
        TE.map((value): Outcome<RequestView> => ({ value, replayed: false })),
      );
    // The key is claimed before the Request is locked, so a retry of a call still running
    // is told so at once instead of queueing behind it; the key is scoped to the
    // Request's site, read first.
    return deps.transact((store) =>
      pipe(
        store.requests.siteOf(input.requestId, siteIds(input.caller)),
        TE.chainW(TE.fromOption(() => notFound('request'))),
        TE.chain((siteId) => idempotently(store, siteId, input.idempotency)(() => locked(store, [siteId]))),
      ),
    );
  };

/** draft → sent: the Execution URLs go live and `request.sent` tells the notifier whom to reach. */
export const sendRequest = (deps: TransitionDeps) => transition(deps, send);

export interface CancelInput extends TransitionInput {
  /** Why, and whether the signers who were told of it are told (ADR 3500); neither by default. */
  readonly order?: CancelOrder;
}

/** draft or sent → cancelled, with `request.cancelled`, and `notice.cancelled` when the signers are told. */
export const cancelRequest =
  (deps: TransitionDeps) =>
  (input: CancelInput): TE.TaskEither<AppError, Outcome<RequestView>> =>
    transition(deps, (request, now) => cancel(request, now, input.order))(input);

export const remindRequest = (deps: TransitionDeps & Pick<Deps, 'remindPolicy'>) =>
  transition(deps, (request, now) => remind(request, now, deps.remindPolicy));

export interface ReissueInput extends TransitionInput {
  /** The client's signer_id of the signer whose link is replaced. */
  readonly signerId: string;
  /** Also send the new link to the signer (a `request.reminded` for them alone). */
  readonly notify: boolean;
}

/**
 * sent → sent: a new Execution URL for one signer who has not signed; their older links
 * stop opening at once (ADR 1321). Answers the Request, whose view carries the new URL.
 */
export const reissueExecutionUrl =
  (deps: TransitionDeps) =>
  (input: ReissueInput): TE.TaskEither<AppError, Outcome<RequestView>> =>
    transition(deps, (request, now) => reissueLink(request, input.signerId, now, input.notify))(input);

export interface CorrectSignerInput
  extends TransitionInput, Omit<SignerCorrectionOrder, 'by' | 'correction'> {
  /** As asked: a draft's signer's new check carries its access code, hashed here (ADR 3290). */
  readonly correction: Omit<SignerCorrection, 'authentication'> & {
    readonly authentication?: SignerAuthentication | null;
  };
}

/**
 * sent → sent: corrects how one signer who has not signed is reached (ADR 3140); a new
 * address gives them a new Execution URL. draft → draft: a signer's channels, order, check
 * or language (ADRs 3200, 3290). Answers the Request.
 */
export const correctRequestSigner =
  (deps: TransitionDeps & Pick<Deps, 'codeHasher'>) =>
  (input: CorrectSignerInput): TE.TaskEither<AppError, Outcome<RequestView>> => {
    const { authentication, ...rest } = input.correction;
    return pipe(
      authentication == null
        ? TE.right<never, SignerCorrection['authentication']>(authentication)
        : pipe(
            challengeFor(deps)(authentication),
            TE.map((challenge) => ({ entry: authentication, challenge })),
          ),
      TE.chainW((auth) =>
        transition(deps, (request, now) =>
          correctSigner(
            request,
            {
              signerId: input.signerId,
              correction: { ...rest, ...(auth !== undefined && { authentication: auth }) },
              notify: input.notify,
              by: input.caller.email ?? input.caller.sub,
            },
            now,
          ),
        )(input),
      ),
    );
  };

type SweepDeps = Pick<Deps, 'transact' | 'clock' | 'ids' | 'urlSigner' | 'publicBaseUrl'>;

/**
 * One batch of a sweep in one transaction: locks what is due (`lockDue`), applies `apply`
 * to each and writes each with its events (the outbox); answers how many it changed.
 */
const sweep =
  (
    deps: SweepDeps,
    lockDue: (store: Store, now: string, limit: number) => TE.TaskEither<never, readonly SignatureRequest[]>,
    apply: (request: SignatureRequest, now: string) => O.Option<Transition>,
  ) =>
  (limit: number): TE.TaskEither<never, number> => {
    const now = isoNow(deps.clock);
    return deps.transact((store) =>
      pipe(
        lockDue(store, now, limit),
        TE.chain((due) =>
          pipe(
            due.flatMap((previous) =>
              O.match(
                () => [],
                (t: Transition) => [{ previous, ...t }],
              )(apply(previous, now)),
            ),
            TE.traverseSeqArray((t) =>
              store.requests.update(
                t.previous,
                t.request,
                envelopes(
                  // An expiry's notice links its creator to the Request's page (ADR 3520).
                  { ids: deps.ids, executionUrl: executionUrl(deps), requestPageUrl: requestPageUrl(deps) },
                  t.request,
                  t.events,
                ),
              ),
            ),
            TE.map((done) => done.length),
          ),
        ),
      ),
    );
  };

/**
 * Expires open Requests whose `expires_at` has passed, a batch per transaction; answers
 * how many. Run it periodically: Execution URLs stop working at `expires_at` whatever
 * the sweep's pace (the URL check reads the time), the sweep makes the state and the
 * `request.expired` event follow.
 */
export const expireDueRequests =
  (deps: SweepDeps) =>
  (limit = 100): TE.TaskEither<never, number> =>
    sweep(
      deps,
      (store, now, n) => store.requests.lockDueForExpiry(now, n),
      (request, now) => O.fromEither(expire(request, now)),
    )(limit);

/**
 * Sends the automatic reminders that are due (ADR 3130), a batch per transaction; answers
 * how many Requests it settled: each reminded (its `request.reminded` in the outbox with
 * the write) and its next reminder scheduled, or its schedule cleared when nothing is
 * left to remind or the limit is reached. Requests another replica's sweep holds are
 * skipped, so each due reminder goes once.
 */
export const remindDueRequests =
  (deps: SweepDeps & Pick<Deps, 'remindPolicy'>) =>
  (limit = 100): TE.TaskEither<never, number> =>
    sweep(
      deps,
      (store, now, n) => store.requests.lockDueForReminder(now, n),
      (request, now) => O.some(remindAutomatically(request, now, deps.remindPolicy)),
    )(limit);
