import * as E from 'fp-ts/lib/Either.js';
import { absurd, pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as T from 'fp-ts/lib/Task.js';
import * as TE from 'fp-ts/lib/TaskEither.js';

/** A fake's answer as a port operation with no expected failure. */
export const task = <A>(run: T.Task<A>): TE.TaskEither<never, A> => TE.fromTask(run);

/** A fake's look-up that may find nothing (undefined): none. */
export const maybe = <A>(run: T.Task<A | undefined>): TE.TaskEither<never, O.Option<A>> =>
  pipe(TE.fromTask(run), TE.map(O.fromNullable));

/** The answer of a port operation or use case that has no expected failure (an outage rejects). */
export const valueOf = async <A>(operation: TE.TaskEither<never, A>): Promise<A> => {
  const answer = await operation();
  return E.isRight(answer) ? answer.right : absurd(answer.left);
};

/** The success of a use case under test; its failure fails the test, showing what it was. */
export const right = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw new Error(`expected success, got ${JSON.stringify(result.left)}`);
  return result.right;
};

/** The failure of a use case under test; its success fails the test, showing what it was. */
export const left = async (task: () => Promise<E.Either<unknown, unknown>>): Promise<unknown> => {
  const result = await task();
  if (E.isRight(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.right)}`);
  return result.left;
};
