import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Autocommit, Store, Transact } from '../ports/store.js';
import type { AppError } from './errors.js';

/** What the caller sent with an `Idempotency-Key`: the key and a digest of the call itself. */
export interface Idempotency {
  readonly key: string;
  /** Same method, path and body give the same fingerprint. */
  readonly fingerprint: string;
}

/**
 * A fresh answer, or the answer an earlier identical call got, replayed as it was given
 * then: it is not decoded again, so a stored answer stays replayable even after a new
 * version of the service changed the shape of its answers.
 */
export type Outcome<A> =
  { readonly value: A; readonly replayed: false } | { readonly value: unknown; readonly replayed: true };

/**
 * Runs `work` at most once per key and site. Call it inside the transaction that does
 * the work: the answer is stored by that same transaction, so it exists exactly when
 * the work committed. Refusals are not stored; a retry after one runs afresh.
 */
export const idempotently =
  (store: Store, siteId: number, idempotency: Idempotency | undefined) =>
  <A extends object>(work: () => TE.TaskEither<AppError, A>): TE.TaskEither<AppError, Outcome<A>> => {
    const fresh = (value: A): Outcome<A> => ({ value, replayed: false });
    if (idempotency === undefined) return pipe(work(), TE.map(fresh));
    const scope = { siteId, key: idempotency.key };
    return pipe(
      store.idempotency.claim(scope, idempotency.fingerprint),
      TE.mapLeft((e): AppError => e),
      TE.chain(
        O.match(
          () =>
            pipe(
              work(),
              TE.chainFirstW((value) => store.idempotency.remember(scope, idempotency.fingerprint, value)),
              TE.map(fresh),
            ),
          (stored): TE.TaskEither<AppError, Outcome<A>> => TE.right({ value: stored, replayed: true }),
        ),
      ),
    );
  };

/**
 * `work` in a transaction of its own, at most once per key and site: the work, its
 * answer and the key's record commit together (see `idempotently`).
 */
export const transactIdempotently = <A extends object>(
  transact: Transact,
  siteId: number,
  idempotency: Idempotency | undefined,
  work: (store: Store) => TE.TaskEither<AppError, A>,
): TE.TaskEither<AppError, Outcome<A>> =>
  transact((store) => idempotently(store, siteId, idempotency)(() => work(store)));

/**
 * `transactIdempotently` for work whose reads lock nothing and which writes in one
 * statement at most. Without a key there is nothing to claim or record, and the one
 * write is atomic on its own, so the work runs on one connection without BEGIN and
 * COMMIT (ADR 2640). With a key, the claim, the work and the record still commit together.
 */
export const oneWriteIdempotently = <A extends object>(
  deps: { readonly transact: Transact; readonly autocommit: Autocommit },
  siteId: number,
  idempotency: Idempotency | undefined,
  work: (store: Store) => TE.TaskEither<AppError, A>,
): TE.TaskEither<AppError, Outcome<A>> =>
  idempotency === undefined
    ? pipe(
        deps.autocommit(work),
        TE.map((value): Outcome<A> => ({ value, replayed: false })),
      )
    : transactIdempotently(deps.transact, siteId, idempotency, work);
