import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Clock } from '@esign/contracts';

export interface CachedLookupOptions {
  /** How long a successful answer is reused, counted from when it was asked for; 0 disables reuse. */
  readonly ttlMs: number;
  readonly clock: Clock;
  /** Past this many entries, expired ones are swept and then the oldest dropped. */
  readonly maxEntries: number;
}

/**
 * Reuses a lookup's successful answers for `ttlMs` and lets concurrent callers for the
 * same key share one lookup in flight. Failures are never kept: the next call asks again.
 * The clock starts when the lookup starts, so an answer is never older than `ttlMs`
 * plus nothing: the bound the gateway promises for revocations holds exactly.
 */
export const cachedLookup = <L, A>(
  lookup: (key: string) => TE.TaskEither<L, A>,
  options: CachedLookupOptions,
): ((key: string) => TE.TaskEither<L, A>) => {
  const answers = new Map<string, { readonly expiresAt: number; readonly value: A }>();
  const inFlight = new Map<string, Promise<E.Either<L, A>>>();

  const remember = (key: string, value: A, expiresAt: number) => {
    answers.delete(key);
    if (answers.size >= options.maxEntries) {
      const now = options.clock.now().getTime();
      for (const [k, entry] of answers) if (entry.expiresAt <= now) answers.delete(k);
      for (const k of answers.keys()) {
        if (answers.size < options.maxEntries) break;
        answers.delete(k);
      }
    }
    answers.set(key, { expiresAt, value });
  };

  return (key) => () => {
    const startedAt = options.clock.now().getTime();
    const hit = answers.get(key);
    if (hit !== undefined) {
      if (hit.expiresAt > startedAt) return Promise.resolve(E.right(hit.value));
      answers.delete(key);
    }
    const pending = inFlight.get(key);
    if (pending !== undefined) return pending;
    const asking = lookup(key)().then(
      (result) => {
        inFlight.delete(key);
        if (E.isRight(result) && options.ttlMs > 0) remember(key, result.right, startedAt + options.ttlMs);
        return result;
      },
      (error: unknown) => {
        inFlight.delete(key);
        throw error;
      },
    );
    inFlight.set(key, asking);
    return asking;
  };
};
