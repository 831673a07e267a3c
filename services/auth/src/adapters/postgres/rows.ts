import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as T from 'fp-ts/lib/Task.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';

/** A timestamptz column (the pool hands them over as ISO strings) as a Date. */
export const Timestamp = new t.Type<Date, string, unknown>(
  'Timestamp',
  (u): u is Date => u instanceof Date,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be a timestamp');
    const date = new Date(u);
    return Number.isNaN(date.getTime()) ? t.failure(u, c, 'must be a timestamp') : t.success(date);
  },
  (d) => d.toISOString(),
);

export const NullableTimestamp = t.union([Timestamp, t.null]);

export const Bytes = new t.Type<Buffer, Buffer, unknown>(
  'Bytes',
  (u): u is Buffer => Buffer.isBuffer(u),
  (u, c) => (Buffer.isBuffer(u) ? t.success(u) : t.failure(u, c, 'must be bytea')),
  t.identity,
);

export const offsetOf = (page: { page: number; perPage: number }): number => (page.page - 1) * page.perPage;

/** A query as a port operation with no expected failure: an outage still rejects. */
export const task = <A>(run: T.Task<A>): TE.TaskEither<never, A> => TE.fromTask(run);

/** A query that may find nothing (undefined or null): none. */
export const maybe = <A>(run: T.Task<A | null | undefined>): TE.TaskEither<never, O.Option<A>> =>
  pipe(TE.fromTask(run), TE.map(O.fromNullable));
