import { EventEmitter } from 'node:events';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import {
  BackendTerminatedError,
  ConnectionError,
  createPool,
  createTypeParserPreset,
  sql,
  type CommonQueryMethods,
  type DatabasePool,
  type DriverClient,
  type DriverFactory,
  type FragmentSqlToken,
  type Interceptor,
  type QuerySqlToken,
} from 'slonik';
import { createPgDriverFactory } from '@slonik/pg-driver';
import { formatErrors, renderErrors } from '@esign/contracts';
import { statementFor } from './prepared.js';

export { sql };
export { prepared, PREPARED_MARK } from './prepared.js';

/** Socket errors and SQLSTATEs (class 08, connection exceptions; 57P01-03, shutting down) of an unreachable server. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
]);
const UNREACHABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/**
 * Whether `error` says the database cannot be reached right now, so a retry may succeed
 * (a 503 to the client), rather than a bug (a 500). Follows `cause` chains: slonik wraps
 * pg's errors.
 */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof ConnectionError || current instanceof BackendTerminatedError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (UNREACHABLE_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
};
export type { CommonQueryMethods, DatabasePool, Interceptor };
export type Queryable = CommonQueryMethods;

export interface PoolOptions {
  readonly maximumPoolSize?: number;
  readonly statementTimeoutMs?: number;
  /** slonik interceptors, e.g. a test counting the statements of a transaction. */
  readonly interceptors?: readonly Interceptor[];
}

/**
 * slonik 47 can wedge a pool for good: when a connection dies in the middle of a query (a
 * database restart, a failover, a cut network), its destroy awaits the failed query, throws,
 * and never announces the destruction, so the pool keeps the connection as "pending
 * destroy" forever. Once every slot is such a ghost, every caller waits forever (the
 * Postgres fault drill of tests/e2e found it). This driver follows each destroy and, when
 * slonik's own fails, reports the client destroyed, so the pool drops it and opens a fresh
 * connection for whoever waits. The pg connection itself is already closed by then.
 */
type Listener = (...args: unknown[]) => void;
interface LooseEmitter {
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
  removeListener(event: string, listener: Listener): unknown;
}

export const recoveringDriverFactory =
  (inner: DriverFactory): DriverFactory =>
  async (options) => {
    const driver = await inner(options);
    return {
      createClient: async (): Promise<DriverClient> => {
        const client = await driver.createClient();
        const announcer = new EventEmitter();
        let buried = false;
        const bury = () => {
          if (buried) return;
          buried = true;
          announcer.emit('destroy');
        };
        const follow = () => {
          client.destroy().catch(bury);
        };
        // slonik's own error handler starts the destroy; follow the same promise.
        client.on('error', () => {
          if (client.state() === 'PENDING_DESTROY') follow();
        });
        const events = client as unknown as LooseEmitter;
        const wrapped = {
          acquire: () => client.acquire(),
          destroy: () =>
            client.destroy().catch((error: unknown) => {
              bury();
              throw error;
            }),
          id: () => client.id(),
          off: (event: string, listener: Listener) => {
            if (event === 'destroy') announcer.off(event, listener);
            return events.off(event, listener);
          },
          on: (event: string, listener: Listener) => {
            if (event === 'destroy') announcer.on(event, listener);
            return events.on(event, listener);
          },
          // pg takes a { name, text } where slonik passes a string (ADR 2820).
          query: (query: string, values?: unknown[]) => client.query(statementFor(query) as string, values),
          release: () => client.release(),
          removeListener: (event: string, listener: Listener) => {
            if (event === 'destroy') announcer.removeListener(event, listener);
            return events.removeListener(event, listener);
          },
          state: () => (buried ? 'DESTROYED' : client.state()),
          stream: (query: string, values?: unknown[]) => client.stream(query, values),
        };
        return wrapped as unknown as DriverClient;
      },
    };
  };

/**
 * A slonik pool whose timestamps come back as ISO-8601 strings (the wire format) and
 * int8 as numbers; every other type keeps slonik's parsing.
 */
export const createDatabasePool = async (url: string, options: PoolOptions = {}): Promise<DatabasePool> =>
  createPool(url, {
    driverFactory: recoveringDriverFactory(createPgDriverFactory()),
    maximumPoolSize: options.maximumPoolSize ?? 10,
    statementTimeout: options.statementTimeoutMs ?? 10_000,
    connectionTimeout: 5_000,
    idleTimeout: 30_000,
    interceptors: options.interceptors ?? [],
    // slonik sends DISCARD ALL each time a connection goes back to the pool: a round trip
    // on every pooled use. No service keeps session state on a pooled connection (settings
    // and advisory locks are transaction-scoped; LISTEN and migrations use their own
    // clients), so there is nothing to discard (ADR 2620). It stays a function that awaits:
    // without one, slonik 47's release finishes before it records itself as under way and
    // leaves every connection "pending release" for good, so each query opens a new one.
    resetConnection: () => Promise.resolve(),
    typeParsers: [
      ...createTypeParserPreset().filter((p) => !['timestamptz', 'timestamp', 'int8'].includes(p.name)),
      // Counts and ids fit comfortably in a double; a bigint would not survive JSON.
      { name: 'int8', parse: (v: string) => Number.parseInt(v, 10) },
      { name: 'timestamptz', parse: (v: string) => new Date(v).toISOString() },
      { name: 'timestamp', parse: (v: string) => new Date(`${v}Z`).toISOString() },
    ],
  });

/** A row that did not match its codec: a bug or a schema drift, never user input. */
export class RowDecodeError extends Error {
  override readonly name = 'RowDecodeError';
}

const decodeRow =
  <A>(codec: t.Decoder<unknown, A>) =>
  (row: unknown): A => {
    const result = codec.decode(row);
    if (E.isLeft(result))
      throw new RowDecodeError(`${codec.name}: ${renderErrors(formatErrors(result.left))}`);
    return result.right;
  };

type Query = QuerySqlToken;

/** Row-count-stating queries whose rows are decoded with io-ts. */
export const db = {
  one: async <A>(q: Queryable, codec: t.Decoder<unknown, A>, query: Query): Promise<A> =>
    decodeRow(codec)(await q.one(query)),
  maybeOne: async <A>(q: Queryable, codec: t.Decoder<unknown, A>, query: Query): Promise<A | undefined> => {
    const row: unknown = await q.maybeOne(query);
    return row === null ? undefined : decodeRow(codec)(row);
  },
  any: async <A>(q: Queryable, codec: t.Decoder<unknown, A>, query: Query): Promise<A[]> =>
    (await q.any(query)).map(decodeRow(codec)),
  /** Runs a statement and answers how many rows it touched. */
  exec: async (q: Queryable, query: Query): Promise<number> => (await q.query(query)).rowCount,
};

const MsUntil = t.type({ ms: t.union([t.number, t.null]) });

/**
 * How many ms from now, on the database's clock, until the timestamp `earliest` reads: a
 * scalar expression, such as `(SELECT min(next_attempt_at) FROM …)`. Null when it reads
 * NULL (nothing pending), 0 or less when it is past. What a worker that sleeps until its
 * next row falls due asks (ADR 2900).
 */
export const msUntil = async (q: Queryable, earliest: FragmentSqlToken): Promise<number | null> =>
  (
    await db.one(
      q,
      MsUntil,
      sql.unsafe`SELECT (extract(epoch FROM (${earliest}) - now()) * 1000)::float8 AS ms`,
    )
  ).ms;

export { ensureDatabase } from './ensure-database.js';

/** `/readyz` check of a pool. */
export const postgresReadiness = (pool: DatabasePool) => ({
  name: 'postgres',
  check: async () => {
    await pool.query(sql.unsafe`SELECT 1`);
  },
});
