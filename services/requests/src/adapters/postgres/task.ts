import * as TE from 'fp-ts/lib/TaskEither.js';

/**
 * A TaskEither for a query whose only failures are outages and bugs: those reject the
 * promise (and reach the HTTP error handler as a 500/503), they are not domain errors.
 */
export const task = <A>(run: () => Promise<A>): TE.TaskEither<never, A> => TE.rightTask(run);
