import assert from 'node:assert/strict';
import pg from 'pg';
import { PREPARED_MARK, sql } from '@esign/platform/database';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from '../support/harness.js';

// After the platform's mark (`PREPARED_MARK`), which `marked` checks first.
const READ = /^\s*SELECT\s*\(SELECT coalesce\(json_agg\(t\)[\s\S]*FROM contract_templates/;
const WRITE = /^\s*WITH "w0" AS \(\s*INSERT INTO signers/;

/** `text` sent marked as a prepared statement, and what follows the mark. */
const marked = (text: string): string => {
  assert.ok(text.startsWith(PREPARED_MARK), text);
  return text.slice(PREPARED_MARK.length);
};

describe('requests service: a create’s two statements go prepared by name (ADR 2830, real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;
  let headers: Record<string, string>;
  let n = 0;

  before(async () => {
    h = await startHarness('create_prepared');
    template = await publishedTemplate(h.http);
    headers = await principal();
  });
  after(async () => {
    await h.close();
  });

  /** The statements of one create of `signers` new signers, each with a field. */
  const createWith = async (signers: number, extra: Record<string, unknown> = {}, key?: string) => {
    const ids = Array.from({ length: signers }, () => `prepared-${n++}@example.com`);
    h.statements.length = 0;
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(key === undefined ? headers : { ...headers, 'Idempotency-Key': key })
      .send({
        contracts: [template],
        signers: ids.map((signer_id) => ({ signer_id, ...extra })),
        fields: [{ name: 'full_name', assigned_to: ids[0] }],
      })
      .expect(201);
    const read = h.statements.find((s) => /FROM contract_templates/.test(s.sql));
    const write = h.statements.find((s) => /INSERT INTO requests/.test(s.sql));
    assert.ok(read !== undefined && write !== undefined, h.statements.map((s) => s.sql).join('\n---\n'));
    return { read: read.sql, write: write.sql };
  };

  it('marks the read and the write, and their texts do not change with the number of signers', async () => {
    const one = await createWith(1);
    const four = await createWith(4);
    const keyed = await createWith(2, {}, `prepared-key-${n}`);
    for (const { read, write } of [one, four, keyed]) {
      assert.match(marked(read), READ);
      assert.match(marked(write), WRITE);
    }
    // One name per text: a create of four signers reuses the statement of a create of one,
    // so a connection keeps a handful (which parts a create has), not one per create.
    assert.equal(four.read, one.read);
    assert.equal(four.write, one.write);
    assert.equal(keyed.write, one.write);
    const challenged = await createWith(2, {
      authentication: { method: 'access_code', access_code: 'blue-42' },
    });
    assert.match(marked(challenged.write), WRITE);
    assert.match(challenged.write, /INSERT INTO signer_challenges/);
    assert.notEqual(challenged.write, one.write, 'a create with challenges is its own statement');
  });

  it('plans the read generically as lookups by key once the tables have statistics', async () => {
    // A production server's autovacuum analyses the tables as they grow; its generic plan
    // must then look signers up by their key, not scan them (what went wrong in session
    // 31, with plans made over tables never analysed and never replaced). The one
    // template here is rightly read by a scan of its one page.
    await h.pool.query(sql.unsafe`
      INSERT INTO signers (site_id, signer_id, email, created_at, updated_at)
      SELECT ${SITE_A.id}, 'bulk-' || i || '@example.com', 'bulk-' || i || '@example.com', now(), now()
      FROM generate_series(1, 5000) AS i`);
    await h.pool.query(sql.unsafe`ANALYZE`);
    const { read } = await createWith(2);
    const client = new pg.Client({ connectionString: h.database.url });
    await client.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE create_read AS ${read}`);
      const plan = (
        await client.query<{ 'QUERY PLAN': string }>(
          // Its parameters, in order: the site and the templates, the site and the signers.
          `EXPLAIN EXECUTE create_read(${SITE_A.id}, ARRAY[${template}]::int8[], ${SITE_A.id}, ARRAY['bulk-7@example.com']::text[])`,
        )
      ).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      assert.match(plan, /Index (Only )?Scan[^\n]* on signers|Bitmap Index Scan on signers_pkey/, plan);
      assert.doesNotMatch(plan, /Seq Scan on signers/, plan);
    } finally {
      await client.end();
    }
  });
});
