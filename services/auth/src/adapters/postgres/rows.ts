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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from outside are checked before they reach a uuid column, where a malformed one would be an error. */
export const isUuid = (s: string): boolean => UUID.test(s);

/** Site ids are Postgres integers. */
export const isSiteId = (n: number): boolean => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;

export const offsetOf = (page: { page: number; perPage: number }): number => (page.page - 1) * page.perPage;
