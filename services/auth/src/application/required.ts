import { pipe } from 'fp-ts/lib/function.js';
import type * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';

/** What a look-up found, or `onNone`'s failure when it found nothing. */
export const required =
  <E>(onNone: () => E) =>
  <A>(lookUp: TE.TaskEither<never, O.Option<A>>): TE.TaskEither<E, A> =>
    pipe(lookUp, TE.flatMap(TE.fromOption(onNone)));
