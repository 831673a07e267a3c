import assert from 'node:assert/strict';
import type { BulkSendList, RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { purgeDeletedTemplates } from '../../src/adapters/postgres/maintenance.js';
import { bulkSendStarter } from '../support/bulk-send-fixture.js';
import {
  oneSignerRequestBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3460 against real Postgres: the sweep removes the templates deleted longer ago than the
 * retention that no Request and no bulk send names, with their documents, a batch at a time;
 * it leaves every other template, and the Requests and bulk sends made with one, as they were.
 */
describe('requests service: deleted templates no Request names removed by the sweep (real Postgres)', () => {
  let h: Harness;
  let headers: Record<string, string>;
  before(async () => {
    h = await startHarness('deleted_templates_purge');
    headers = await principal([SITE_A]);
  });
  after(async () => h?.close());

  const remove = (id: number) => h.http.delete(`/v1.1/contracts/${id}`).set(headers).expect(204);
  /** Moves a deletion `hours` back, as if the template had been deleted that long ago. */
  const deletedAgo = (id: number, hours: number) =>
    h.pool.query(
      sql.unsafe`UPDATE contract_templates SET deleted_at = now() - make_interval(hours => ${hours}) WHERE id = ${id}`,
    );
  const stored = async (ids: readonly number[]) =>
    (
      await h.pool.anyFirst(
        sql.unsafe`SELECT id FROM contract_templates WHERE id = ANY(${sql.array([...ids], 'int8')}) ORDER BY id`,
      )
    ).map(Number);

  it('removes only the templates deleted before the retention that no Request or bulk send names', async () => {
    const [unused, recent, used, bulked, kept] = [
      await publishedTemplate(h.http),
      await publishedTemplate(h.http),
      await publishedTemplate(h.http),
      await publishedTemplate(h.http),
      await publishedTemplate(h.http),
    ];
    const draft = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/contracts`)
        .set(headers)
        .send({ type: 'html', name: 'Draft', html: '<p>x</p>', fields: [] })
        .expect(201)
    ).body.id as number;
    const made = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send(oneSignerRequestBody(used, 'purge-1'))
        .expect(201)
    ).body as RequestView;
    // A bulk send whose only row failed at once: it made no Request, but its list names the template.
    const bulk = await bulkSendStarter(h, headers)([bulked], [{ signers: [] }]);
    for (const id of [unused, recent, used, bulked]) await remove(id);
    for (const id of [unused, used, bulked]) await deletedAgo(id, 25);
    await deletedAgo(recent, 23);

    assert.equal(await purgeDeletedTemplates(h.pool, 24), 1);
    assert.deepEqual(await stored([unused, recent, used, bulked, kept, draft]), [
      recent,
      used,
      bulked,
      kept,
      draft,
    ]);
    assert.equal(await purgeDeletedTemplates(h.pool, 24), 0, 'nothing more on the next run');

    // What was made with the templates kept is as it was.
    const read = (await h.http.get(`/v1.1/requests/${made.id}`).set(headers).expect(200)).body as RequestView;
    assert.deepEqual(read.contracts, [used]);
    const listed = (await h.http.get(`/v1.1/sites/${SITE_A.id}/bulk_sends`).set(headers).expect(200))
      .body as BulkSendList;
    assert.deepEqual(
      listed.data.find((b) => b.id === bulk.id)?.contracts.map((c) => c.id),
      [bulked],
    );
    // A removed template answers as one that never existed.
    await h.http.get(`/v1.1/contracts/${unused}`).set(headers).expect(404);
    await h.http.delete(`/v1.1/contracts/${unused}`).set(headers).expect(404);
  });

  it('works a batch at a time until none is left', async () => {
    const ids = [
      await publishedTemplate(h.http),
      await publishedTemplate(h.http),
      await publishedTemplate(h.http),
    ];
    for (const id of ids) {
      await remove(id);
      await deletedAgo(id, 30);
    }
    assert.equal(await purgeDeletedTemplates(h.pool, 24, 2), 3, 'two batches');
    assert.deepEqual(await stored(ids), []);
  });
});
