import { pipe } from 'fp-ts/lib/function.js';
import type * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';

/** What a look-up found, or `onNone`'s failure when it found nothing. */
export const required =
  <E>(onNone: () => E) =>
  <A, E0 = never>(lookUp: TE.TaskEither<E0, O.Option<A>>): TE.TaskEither<E | E0, A> =>
    pipe(lookUp, TE.flatMap(TE.fromOption<E | E0>(onNone)));
