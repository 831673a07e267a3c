// What one round trip to Postgres costs the client in CPU: the same one-row query through
// pg alone, through slonik's pool, through slonik on a held connection, and through the
// platform's decoding `db.one`. A round trip saved is worth about this much per call
// (docs/benchmarks.md, session 35). Run after a build:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/query-cost.bench.mjs [queries=5000]
import pg from 'pg';
import * as t from 'io-ts';
import { createDatabasePool, db, sql } from '@esign/platform/database';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const count = Number(process.argv[2] ?? 5000);

const measure = async (name, query) => {
  for (let i = 0; i < 1000; i++) await query(i); // warm-up
  const before = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await query(i);
  const used = process.cpuUsage(before);
  const perQuery = (us) => (us / count).toFixed(1);
  console.log(
    `${name.padEnd(34)} ${perQuery(used.user + used.system)} µs CPU per query ` +
      `(user ${perQuery(used.user)}), ${((count * 1000) / (performance.now() - started)).toFixed(0)}/s`,
  );
};

const client = new pg.Client({ connectionString: url });
await client.connect();
const pool = await createDatabasePool(url, { maximumPoolSize: 1 });
const Row = t.type({ id: t.string });
try {
  // Two rounds: the first is often dearer while the machine settles.
  for (let round = 0; round < 2; round++) {
    await measure('pg, client.query', (i) => client.query('SELECT $1::text AS id', [String(i)]));
    await measure('slonik, pool.query', (i) => pool.query(sql.unsafe`SELECT ${String(i)}::text AS id`));
    await pool.connect((connection) =>
      measure('slonik, a held connection', (i) =>
        connection.query(sql.unsafe`SELECT ${String(i)}::text AS id`),
      ),
    );
    await pool.connect((connection) =>
      measure('db.one (io-ts), a held connection', (i) =>
        db.one(connection, Row, sql.unsafe`SELECT ${String(i)}::text AS id`),
      ),
    );
  }
} finally {
  await client.end();
  await pool.end();
}
