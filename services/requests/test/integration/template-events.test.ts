import assert from 'node:assert/strict';
import type { ContractView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import {
  htmlTemplateBody,
  principal,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3350 against real Postgres: each stored change of a template writes its event to the
 * outbox in the change's transaction, naming the template as it is after it; a call that
 * changes nothing, or is refused, writes none.
 */
describe('requests service: a Site’s template events (real Postgres)', () => {
  let h: Harness;
  let headers: Record<string, string>;
  before(async () => {
    h = await startHarness('template_events');
    headers = await principal([SITE_A, SITE_B]);
  });
  after(async () => {
    await h.close();
  });

  /** The template events of `ids`, in the order they were written: type, site, aggregate and data. */
  const told = async (...ids: number[]) =>
    (await h.pool.any(
      sql.unsafe`SELECT type, envelope->'site_id' AS site, envelope->>'aggregate_id' AS aggregate,
                        envelope->'data' AS data
                 FROM outbox WHERE type LIKE 'contract.%'
                   AND envelope->>'aggregate_id' = ANY(${sql.array(ids.map(String), 'text')})
                 ORDER BY seq`,
    )) as readonly { type: string; site: number; aggregate: string; data: Record<string, unknown> }[];
  const post = (path: string, body?: object) => {
    const call = h.http.post(path).set(headers);
    return body === undefined ? call : call.send(body);
  };

  it('tells of a template’s life: created, updated, published, archived, unarchived; copied; a draft deleted', async () => {
    const made = (await post(`/v1.1/sites/${SITE_A.id}/contracts`, htmlTemplateBody()).expect(201))
      .body as ContractView;
    const id = made.id;
    await h.http
      .put(`/v1.1/contracts/${id}`)
      .set(headers)
      .send(htmlTemplateBody({ name: 'NDA v2' }))
      .expect(200);
    await post(`/v1.1/contracts/${id}/publish`).expect(200);
    await post(`/v1.1/contracts/${id}/archive`).expect(200);
    await post(`/v1.1/contracts/${id}/unarchive`).expect(200);
    const copy = (await post(`/v1.1/contracts/${id}/copy`, { site_id: SITE_B.id }).expect(201))
      .body as ContractView;
    await h.http.delete(`/v1.1/contracts/${copy.id}`).set(headers).expect(204);

    const events = await told(id, copy.id);
    assert.deepEqual(
      events.map((e) => [e.type, e.site, e.aggregate]),
      [
        ['contract.created', SITE_A.id, String(id)],
        ['contract.updated', SITE_A.id, String(id)],
        ['contract.published', SITE_A.id, String(id)],
        ['contract.archived', SITE_A.id, String(id)],
        ['contract.unarchived', SITE_A.id, String(id)],
        ['contract.created', SITE_B.id, String(copy.id)],
        ['contract.deleted', SITE_B.id, String(copy.id)],
      ],
    );
    const shown = events.map((e) => e.data);
    assert.deepEqual(shown[0], {
      contract_id: id,
      name: 'NDA',
      type: 'html',
      state: 'draft',
      archived_at: null,
    });
    assert.deepEqual(
      shown.slice(1).map((d) => [d.name, d.state, d.archived_at === null]),
      [
        ['NDA v2', 'draft', true],
        ['NDA v2', 'published', true],
        ['NDA v2', 'published', false],
        ['NDA v2', 'published', true],
        ['NDA v2', 'draft', true],
        ['NDA v2', 'draft', true],
      ],
    );
    assert.equal(shown[5]!.contract_id, copy.id);
  });

  it('tells nothing of a call that changes nothing or is refused', async () => {
    const id = (
      (await post(`/v1.1/sites/${SITE_A.id}/contracts`, htmlTemplateBody()).expect(201)).body as ContractView
    ).id;
    await post(`/v1.1/contracts/${id}/unarchive`).expect(409); // a draft: refused
    await post(`/v1.1/contracts/${id}/publish`).expect(200);
    await post(`/v1.1/contracts/${id}/publish`).expect(200); // published already
    await post(`/v1.1/contracts/${id}/unarchive`).expect(200); // not archived
    await h.http.put(`/v1.1/contracts/${id}`).set(headers).send(htmlTemplateBody()).expect(409);
    await post(`/v1.1/sites/${SITE_A.id}/contracts`, { type: 'html', name: '' }).expect(422);
    // Deleted once (ADR 3430), it is not there to delete or change again.
    await h.http.delete(`/v1.1/contracts/${id}`).set(headers).expect(204);
    await h.http.delete(`/v1.1/contracts/${id}`).set(headers).expect(404);
    await post(`/v1.1/contracts/${id}/archive`).expect(404);
    assert.deepEqual(
      (await told(id)).map((e) => e.type),
      ['contract.created', 'contract.published', 'contract.deleted'],
    );
  });
});
