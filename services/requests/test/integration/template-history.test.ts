import assert from 'node:assert/strict';
import type { RequestEventList } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import {
  htmlTemplateBody,
  principal,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { indexedScans } from '../support/query-plans.js';

/**
 * ADR 3720 against real Postgres, through the service's HTTP: a template's history, its own
 * entries of its Site's feed (ADR 3700), read by its id.
 */
describe('requests service: a template’s history (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('template_history');
    headers = await principal([SITE_A, SITE_B]);
  });
  after(() => h.close());

  const created = async (name: string, site = SITE_A) =>
    (
      await h.http
        .post(`/v1.1/sites/${site.id}/contracts`)
        .set(headers)
        .send(htmlTemplateBody({ name }))
        .expect(201)
    ).body as { id: number };
  const events = async (id: number, query = '') =>
    (await h.http.get(`/v1.1/contracts/${id}/events${query}`).set(headers).expect(200))
      .body as RequestEventList;

  it('lists the template’s own events, oldest or newest first, by type, each as its webhook carries it', async () => {
    const { id } = await created('Lease');
    const other = await created('Other');
    await h.http
      .put(`/v1.1/contracts/${id}`)
      .set(headers)
      .send(htmlTemplateBody({ name: 'Lease v2' }))
      .expect(200);
    for (const action of ['publish', 'archive', 'unarchive'])
      await h.http.post(`/v1.1/contracts/${id}/${action}`).set(headers).expect(200);
    await h.http.post(`/v1.1/contracts/${other.id}/publish`).set(headers).expect(200);

    const all = await events(id);
    assert.deepEqual(
      all.data.map((e) => [e.type, e.data.contract_id, e.data.name, e.data.state]),
      [
        ['contract.created', id, 'Lease', 'draft'],
        ['contract.updated', id, 'Lease v2', 'draft'],
        ['contract.published', id, 'Lease v2', 'published'],
        ['contract.archived', id, 'Lease v2', 'published'],
        ['contract.unarchived', id, 'Lease v2', 'published'],
      ],
    );
    assert.equal(all.total_count, 5);
    assert.deepEqual(Object.keys(all.data[0]!).sort(), ['created_at', 'data', 'id', 'site_id', 'type']);
    const latest = await events(id, '?order=desc&per_page=2');
    assert.deepEqual(
      latest.data.map((e) => e.type),
      ['contract.unarchived', 'contract.archived'],
    );
    assert.equal(latest.has_more, true);
    const published = await events(id, '?type=contract.published,contract.archived');
    assert.deepEqual(
      published.data.map((e) => e.type),
      ['contract.published', 'contract.archived'],
    );
    assert.equal(published.total_count, 2);
    assert.deepEqual(
      (await events(other.id)).data.map((e) => e.type),
      ['contract.created', 'contract.published'],
    );
  });

  it('refuses a Request’s event type by name, and finds no template of another Site or a deleted one', async () => {
    const { id } = await created('Scoped');
    const refused = await h.http
      .get(`/v1.1/contracts/${id}/events?type=request.sent`)
      .set(headers)
      .expect(400);
    assert.deepEqual(
      (refused.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['type'],
    );
    const { id: elsewhere } = await created('Globex’s', SITE_B);
    await h.http
      .get(`/v1.1/contracts/${elsewhere}/events`)
      .set(await principal([SITE_A]))
      .expect(404);
    await h.http.delete(`/v1.1/contracts/${id}`).set(headers).expect(204);
    await h.http.get(`/v1.1/contracts/${id}/events`).set(headers).expect(404);
  });

  it('reads a template’s entries by the template index, not by scanning the Site’s feed', async () => {
    const { id } = await created('Indexed');
    h.statements.length = 0;
    await events(id);
    const read = h.statements.filter((st) => /contract_id/.test(st.sql));
    assert.equal(read.length, 1, 'one statement counts and reads the page');
    assert.deepEqual(
      await indexedScans(
        h,
        sql.unsafe`SELECT id FROM request_events
          WHERE request_id IS NULL AND (payload->'data'->>'contract_id')::bigint = ${id} AND site_id = ${SITE_A.id}
          ORDER BY id LIMIT 20`,
      ),
      ['Index Scan on request_events_by_template'],
    );
  });
});
