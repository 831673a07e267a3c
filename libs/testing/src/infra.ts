import { randomBytes } from 'node:crypto';
import pg from 'pg';
import amqplib from 'amqplib';

/**
 * The Postgres and RabbitMQ the tests use. `npm test` (scripts/test.mjs) sets these:
 * from DATABASE_URL / AMQP_URL when given, the machine's local servers when they
 * answer, or containers it starts with testcontainers.
 */
export const infra = (): { databaseUrl: string; amqpUrl: string } => {
  const databaseUrl = process.env.DATABASE_URL;
  const amqpUrl = process.env.AMQP_URL;
  if (databaseUrl === undefined || amqpUrl === undefined) {
    throw new Error(
      'DATABASE_URL and AMQP_URL are not set: run the tests with `npm test`, which provides them.',
    );
  }
  return { databaseUrl, amqpUrl };
};

export const uniqueSuffix = (): string => randomBytes(5).toString('hex');

/** The Redis the tests share (`npm test` checks it answers); each test keeps to its own key prefix. */
export const redisUrl = (): string => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix of its own for one test (or one system under test) on the shared Redis. */
export const redisKeyPrefix = (label = 'test'): string => `t:${label}:${uniqueSuffix()}:`;

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of its own for one test file. */
export const createTestDatabase = async (label = 'test'): Promise<TestDatabase> => {
  const base = new URL(infra().databaseUrl);
  const name = `t_${label
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${uniqueSuffix()}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: base.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
};

/** A prefix for exchange and queue names, so each test file has a topology of its own. */
export const amqpPrefix = (label = 'test'): string => `t.${label}.${uniqueSuffix()}`;

/** Deletes what a test file declared on the broker. */
export const deleteAmqpObjects = async (objects: {
  exchanges?: string[];
  queues?: string[];
}): Promise<void> => {
  const connection = await amqplib.connect(infra().amqpUrl);
  try {
    const channel = await connection.createChannel();
    for (const queue of objects.queues ?? []) await channel.deleteQueue(queue);
    for (const exchange of objects.exchanges ?? []) await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
};

/**
 * Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`.
 * The default bound is generous: it only costs time when the test fails anyway, and a
 * loaded CI machine can be ten times slower than a laptop.
 */
export const eventually = async <T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  everyMs = 25,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};
