import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import {
  createDatabasePool,
  db,
  migrate,
  sql,
  type DatabasePool,
  type OutgoingEvent,
} from '@esign/platform/database';
import { createTestDatabase, type TestDatabase } from '@esign/testing';
import { postgresDeliveryReports } from '../../src/adapters/postgres/postgres-delivery-reports.js';
import { postgresDeliveryStore } from '../../src/adapters/postgres/postgres-delivery-store.js';
import { migrationsDir } from '../../src/migrate.js';
import { outcomeEvent, planDeliveries, undeliveredEvent } from '../../src/domain/delivery.js';
import { requestSent, signer } from '../support/events.js';

const run = <A>(task: TE.TaskEither<never, A>): Promise<A> => TE.toUnion(task)();

/** ADR 3880: a provider's later report on a message it accepted, kept with the deliveries. */
describe('notifier adapter: Postgres delivery reports', () => {
  let database: TestDatabase;
  let pool: DatabasePool;
  const handedOff: OutgoingEvent[] = [];

  before(async () => {
    database = await createTestDatabase('notifier_reports');
    await migrate(database.url, migrationsDir);
    pool = await createDatabasePool(database.url);
  });
  after(async () => {
    await pool.end();
    await database.drop();
  });

  /** An SMS claimed and accepted as `sid`, as the notifier records one. */
  const accepted = async (sid: string) => {
    const store = postgresDeliveryStore(pool);
    const event = requestSent([
      signer({ mobile_number: '2025550143', send_to: { email: false, mobile_number: true } }),
    ]);
    const target = planDeliveries(event)[0]!;
    await run(
      store.claim({
        key: target.key,
        requestId: event.data.request_id,
        signerId: target.signer.signer_id,
        recipient: target.recipient,
        siteId: event.site_id,
        address: target.signer.mobile_number,
        leaseMs: 60_000,
      }),
    );
    const settlement = { _tag: 'Delivered', providerMessageId: sid } as const;
    await run(
      store.settle(
        target.key,
        1,
        settlement,
        outcomeEvent(event, target, settlement, randomUUID(), new Date()),
      ),
    );
    return { event, target };
  };
  const reports = () =>
    postgresDeliveryReports(pool, { publishCommitted: (events) => handedOff.push(...events) });
  const undelivered = (sid: string) =>
    run(
      reports().undelivered(sid, 'sms', 'Twilio undelivered: error 30003', (message) =>
        undeliveredEvent(
          message,
          { error: 'Twilio undelivered: error 30003', permanent: true },
          randomUUID(),
          new Date(),
        ),
      ),
    );
  const outboxFor = (causeEventId: string) =>
    db.any(
      pool,
      t.type({ type: t.string, error: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT type, envelope->'data'->>'error' AS error FROM outbox
                 WHERE envelope->'data'->>'cause_event_id' = ${causeEventId} ORDER BY type`,
    );
  const statusOf = (sid: string) =>
    db.one(
      pool,
      t.type({ status: t.string }),
      sql.unsafe`SELECT status FROM deliveries WHERE provider_message_id = ${sid}`,
    );

  it('turns an accepted message failed and writes its report, naming what the cause named, once', async () => {
    const sid = `SM${randomUUID().replace(/-/g, '')}`;
    const { event, target } = await accepted(sid);
    const message = await undelivered(sid);
    assert.deepEqual(
      message,
      O.some({
        causeEventId: event.id,
        requestId: event.data.request_id,
        siteId: event.site_id,
        signerId: target.signer.signer_id,
        signerRef: target.signer.signer_ref,
        channel: 'sms',
        address: '2025550143',
        providerMessageId: sid,
      }),
    );
    assert.deepEqual(await statusOf(sid), { status: 'failed' });
    assert.deepEqual(await outboxFor(event.id), [
      { type: 'notification.delivered', error: null },
      { type: 'notification.failed', error: 'Twilio undelivered: error 30003' },
    ]);
    assert.equal(handedOff.filter((e) => e.type === 'notification.failed').length, 1, 'handed to the relay');
    assert.deepEqual(await undelivered(sid), O.none, 'reported again: told once');
    assert.equal((await outboxFor(event.id)).length, 2);
  });

  it('leaves an unknown message, and one kept before reports were, with nothing written', async () => {
    assert.deepEqual(await undelivered(`SM${'0'.repeat(32)}`), O.none);
    const sid = `SM${randomUUID().replace(/-/g, '')}`;
    const { event } = await accepted(sid);
    await pool.query(sql.unsafe`UPDATE deliveries SET site_id = NULL WHERE provider_message_id = ${sid}`);
    assert.deepEqual(await undelivered(sid), O.none);
    assert.deepEqual(await statusOf(sid), { status: 'delivered' });
    assert.deepEqual(await outboxFor(event.id), [{ type: 'notification.delivered', error: null }]);
  });
});
