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
