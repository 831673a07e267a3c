import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type * as t from 'io-ts';
import type { Store } from '../ports/store.js';
import type { AppError } from './errors.js';

/** What the caller sent with an `Idempotency-Key`: the key and a digest of the call itself. */
export interface Idempotency {
  readonly key: string;
  /** Same method, path and body give the same fingerprint. */
  readonly fingerprint: string;
}

export interface Outcome<A> {
  readonly value: A;
  /** True when this is the stored answer of an earlier identical call. */
  readonly replayed: boolean;
}

/**
 * Runs `work` at most once per key and site. Call it inside the transaction that does
 * the work: the answer is stored by that same transaction, so it exists exactly when
 * the work committed. Refusals are not stored; a retry after one runs afresh.
 */
export const idempotently =
  <A, O>(store: Store, siteId: number, idempotency: Idempotency | undefined, codec: t.Type<A, O, unknown>) =>
  (work: () => TE.TaskEither<AppError, A>): TE.TaskEither<AppError, Outcome<A>> => {
    if (idempotency === undefined)
      return pipe(
        work(),
        TE.map((value) => ({ value, replayed: false })),
      );
    const scope = { siteId, key: idempotency.key };
    return pipe(
      store.idempotency.claim(scope, idempotency.fingerprint),
      TE.mapLeft((e): AppError => e),
      TE.chain<AppError, O.Option<unknown>, Outcome<A>>(
        O.match<unknown, TE.TaskEither<AppError, Outcome<A>>>(
          () =>
            pipe(
              work(),
              TE.chainFirstW((value) =>
                store.idempotency.remember(scope, idempotency.fingerprint, codec.encode(value)),
              ),
              TE.map((value) => ({ value, replayed: false })),
            ),
          (stored) => {
            const decoded = codec.decode(stored);
            // What we stored ourselves no longer decodes: a bug or a schema change, not the caller's fault.
            if (E.isLeft(decoded))
              throw new Error(`stored idempotent answer does not decode as ${codec.name}`);
            return TE.right({ value: decoded.right, replayed: true });
          },
        ),
      ),
    );
  };
