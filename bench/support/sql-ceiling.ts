/**
 * The raw SQL ceiling: what the database alone takes of a create's writes, in the same
 * run and at the same concurrency as the creates it is compared with.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { signerPair } from './bodies.js';
import { percentile } from './measure.js';

export interface Run {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/**
 * The rows one create writes (the signers upserted; the Request with its contract, two
 * signers and three fields in one statement of data-modifying CTEs; the outbox row), as a
 * transaction of plain parameterised SQL over `connections` pooled connections: what the
 * database alone can take, without HTTP, validation, templates or JSON views.
 */
export const rawSqlCeiling = async (
  databaseUrl: string,
  siteId: number,
  template: number,
  unique: boolean,
  connections: number,
  seconds: number,
): Promise<Run> => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  const transaction = async () => {
    const client = await pool.connect();
    const id = randomUUID();
    const { a, email, mobile } = signerPair(unique);
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO signers (site_id, signer_id, email, mobile_number, created_at, updated_at)
         VALUES ($1, $2, $3, NULL, now(), now()), ($1, $4, NULL, '1' || $4, now(), now())
         ON CONFLICT (site_id, signer_id) DO UPDATE
           SET email = COALESCE(EXCLUDED.email, signers.email),
               mobile_number = COALESCE(EXCLUDED.mobile_number, signers.mobile_number), updated_at = now()`,
        [siteId, a, email, mobile],
      );
      await client.query(
        `WITH r AS (
           INSERT INTO requests (id, site_id, site_name, state, render_data, created_at, updated_at)
           VALUES ($1, $2, 'Bench site', 'draft', $3, now(), now()) RETURNING id
         ), c AS (
           INSERT INTO request_contracts (request_id, position, template_id, name)
           SELECT id, 0, $4, 'Services agreement' FROM r
         ), s AS (
           INSERT INTO request_signers (request_id, position, site_id, signer_id, signer_ref, send_email, send_sms, state)
           SELECT id, v.position, $2, v.signer_id, v.ref, v.email, v.sms, 'pending' FROM r,
             (VALUES (0, $7, $5, true, false), (1, $8, $6, false, true))
               AS v(position, signer_id, ref, email, sms)
           RETURNING request_id
         )
         INSERT INTO request_fields (request_id, position, name, default_value, assigned_to)
         SELECT DISTINCT s.request_id, f.position, f.name, NULL::jsonb, f.assigned_to FROM s,
           (VALUES (0, 'full_name', $7), (1, 'signature', $7),
                   (2, 'witness_signature', $8)) AS f(position, name, assigned_to)`,
        [
          id,
          siteId,
          JSON.stringify({ client_name: 'Jane Q. Client', start_date: '2030-01-01' }),
          template,
          randomUUID().slice(0, 12),
          randomUUID().slice(0, 12),
          a,
          mobile,
        ],
      );
      await client.query(`INSERT INTO outbox (id, type, envelope) VALUES ($1, 'request.created', $2)`, [
        randomUUID(),
        JSON.stringify({ id, type: 'request.created', site_id: siteId, aggregate_id: id, data: {} }),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
  const measure = async (seconds: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          await transaction();
          latencies.push(performance.now() - started);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return {
      rps: latencies.length / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors: 0,
    };
  };
  try {
    await measure(2);
    return await measure(seconds);
  } finally {
    await pool.end();
  }
};
