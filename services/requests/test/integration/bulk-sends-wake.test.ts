import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@esign/testing';
import { postgresBulkSendStore } from '../../src/adapters/postgres/postgres-bulk-send-store.js';
import { BULK_SENDS_CHANNEL } from '../../src/background.js';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from '../support/harness.js';

/**
 * What wakes the bulk-send workers of every replica, and when they look again (ADR 2910),
 * against real Postgres: a bulk send's commit notifies their channel, and the store says
 * when the next pending row can be claimed.
 */
describe('requests service: bulk-send workers woken by the commit, asleep until a row falls due', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;
  let headers: Record<string, string>;
  let listener: pg.Client;
  let notified = 0;

  before(async () => {
    h = await startHarness('bulk_sends_wake');
    template = await publishedTemplate(h.http);
    headers = await principal();
    listener = new pg.Client({ connectionString: h.database.url });
    await listener.connect();
    listener.on('notification', (message) => {
      if (message.channel === BULK_SENDS_CHANNEL) notified++;
    });
    await listener.query(`LISTEN ${BULK_SENDS_CHANNEL}`);
  });
  after(async () => {
    await listener?.end();
    await h?.close();
  });

  const row = (i: number) => ({
    signers: [{ signer_id: `w-${i}`, signer: { email: `wake-${i}@example.com` }, send_to: { email: true } }],
    fields: [{ name: 'full_name', assigned_to: `wake-${i}@example.com` }],
  });
  const store = () => postgresBulkSendStore(h.pool);
  const dueInMs = async () => E.toUnion(await store().nextDueInMs()());

  it('notifies the workers once a bulk send has committed, and not for a refused one', async () => {
    const before = notified;
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
      .set(headers)
      .send({ contracts: [template], send: false, rows: [row(1), row(2)] })
      .expect(202);
    await eventually(() => Promise.resolve(notified === before + 1 ? true : undefined));
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
      .set(headers)
      .send({ contracts: [999_999], rows: [row(3)] })
      .expect(422);
    await sleep(300);
    assert.equal(notified, before + 1, 'nothing committed, nothing notified');
  });

  it('says when the next pending row can be claimed: now, when a lease or a pacing ends, never', async () => {
    const now = await dueInMs();
    assert.ok(now !== null && now <= 0, `rows pending and free: due now (${now})`);
    const claimed = E.toUnion(await store().claim(10, 60_000)());
    assert.equal(claimed.length, 2);
    const leased = await dueInMs();
    assert.ok(leased !== null && leased > 50_000 && leased <= 60_000, `leased for a minute (${leased})`);
    const first = claimed[0]!;
    E.toUnion(await store().release(first.bulk.id, first.row, 2_000)());
    const paced = await dueInMs();
    assert.ok(paced !== null && paced > 1_000 && paced <= 2_000, `one given back for 2 s (${paced})`);
    for (const c of claimed)
      E.toUnion(
        await store().settle(
          c.bulk.id,
          c.row,
          { status: 'failed', requestId: null, errors: [] },
          new Date().toISOString(),
        )(),
      );
    assert.equal(await dueInMs(), null, 'nothing pending');
  });
});
