import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import {
  createDatabasePool,
  db,
  isDatabaseUnavailable,
  migrate,
  sql,
  type DatabasePool,
  type OutgoingEvent,
} from '@esign/platform/database';
import { createTestDatabase, startTcpProxy, type TestDatabase } from '@esign/testing';
import { postgresDeliveryStore } from '../../src/adapters/postgres/postgres-delivery-store.js';
import { migrationsDir } from '../../src/migrate.js';
import {
  outcomeEvent,
  planDeliveries,
  type DeliveryKey,
  type Settlement,
} from '../../src/domain/delivery.js';
import type { DeliveryStore } from '../../src/ports/delivery-store.js';
import { requestSent, signer } from '../support/events.js';

const run = <A>(task: TE.TaskEither<never, A>): Promise<A> => TE.toUnion(task)();

describe('notifier adapter: Postgres deliveries store', () => {
  let database: TestDatabase;
  let pool: DatabasePool;
  let store: DeliveryStore;

  before(async () => {
    database = await createTestDatabase('notifier_store');
    await migrate(database.url, migrationsDir);
    pool = await createDatabasePool(database.url);
    // The relay's hand-off, recorded: what the store gives it after a settle (ADR 2660).
    store = postgresDeliveryStore(pool, { publishCommitted: (events) => handedOff.push(...events) });
  });
  const handedOff: OutgoingEvent[] = [];
  const handedOffFor = (eventId: string) =>
    handedOff.filter(
      (e) => (e as unknown as { data: { cause_event_id: string } }).data.cause_event_id === eventId,
    );
  after(async () => {
    await pool.end();
    await database.drop();
  });

  const fixture = () => {
    const event = requestSent([signer({ signer_ref: `sg_${randomUUID().slice(0, 8)}` })]);
    const target = planDeliveries(event)[0]!;
    const claim = (leaseMs = 60_000) =>
      run(
        store.claim({
          key: target.key,
          requestId: 'rq_1',
          signerId: target.signer.signer_id,
          recipient: target.recipient,
          siteId: event.site_id,
          address: target.signer.email,
          leaseMs,
        }),
      );
    const settle = (attempt: number, settlement: Settlement) =>
      run(
        store.settle(
          target.key,
          attempt,
          settlement,
          outcomeEvent(event, target, settlement, randomUUID(), new Date()),
        ),
      );
    return { event, key: target.key, claim, settle };
  };

  const outboxFor = (eventId: string) =>
    db.any(
      pool,
      t.type({ type: t.string }),
      sql.unsafe`SELECT type FROM outbox WHERE envelope->'data'->>'cause_event_id' = ${eventId}`,
    );
  const attempts = (key: DeliveryKey) =>
    db.any(
      pool,
      t.type({ attempt: t.number, outcome: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT attempt, outcome FROM delivery_attempts
                 WHERE event_id = ${key.eventId} AND signer_ref = ${key.signerRef} AND channel = ${key.channel}
                 ORDER BY attempt`,
    );

  it('claims a message once; a settled one is not claimed again, and its event is in the outbox', async () => {
    const { event, key, claim, settle } = fixture();
    assert.deepEqual(await claim(), { _tag: 'Claimed', attempt: 1 });
    assert.deepEqual(await claim(), { _tag: 'Busy' });
    await settle(1, { _tag: 'Delivered', providerMessageId: 'm-1' });
    assert.deepEqual(await claim(), { _tag: 'Settled', status: 'delivered' });
    assert.deepEqual(await outboxFor(event.id), [{ type: 'notification.delivered' }]);
    assert.deepEqual(await attempts(key), [{ attempt: 1, outcome: 'delivered' }]);
  });

  it('gives a deferred message to the next claim as a new attempt', async () => {
    const { event, key, claim, settle } = fixture();
    await claim();
    await run(store.defer(key, 1, '421 try later'));
    assert.deepEqual(await claim(), { _tag: 'Claimed', attempt: 2 });
    await settle(2, { _tag: 'Failed', error: 'gave up after 2 attempts: 421 try later' });
    assert.deepEqual(await outboxFor(event.id), [{ type: 'notification.failed' }]);
    assert.deepEqual(await attempts(key), [
      { attempt: 1, outcome: 'transient' },
      { attempt: 2, outcome: 'failed' },
    ]);
  });

  it('lets one of many concurrent claims win', async () => {
    const { claim } = fixture();
    const claims = await Promise.all(Array.from({ length: 8 }, () => claim()));
    assert.equal(claims.filter((c) => c._tag === 'Claimed').length, 1);
    assert.equal(claims.filter((c) => c._tag === 'Busy').length, 7);
  });

  it('takes over a message whose worker vanished, and ignores that worker’s late outcome', async () => {
    const { event, key, claim, settle } = fixture();
    await claim(1);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await claim(), { _tag: 'Claimed', attempt: 2 });
    await settle(1, { _tag: 'Delivered', providerMessageId: 'late' });
    assert.deepEqual(await outboxFor(event.id), []);
    assert.deepEqual(handedOffFor(event.id), [], 'no event written, none handed off');
    await settle(2, { _tag: 'Delivered', providerMessageId: 'm-2' });
    assert.deepEqual(await outboxFor(event.id), [{ type: 'notification.delivered' }]);
    // The one event written is handed to the relay, and its row is left to that hand-off.
    assert.deepEqual(
      handedOffFor(event.id).map((e) => e.type),
      ['notification.delivered'],
    );
    const { later } = await db.one(
      pool,
      t.type({ later: t.boolean }),
      sql.unsafe`SELECT bool_and(next_attempt_at > now()) AS later FROM outbox
                 WHERE envelope->'data'->>'cause_event_id' = ${event.id}`,
    );
    assert.equal(later, true);
    assert.deepEqual(await attempts(key), [
      { attempt: 1, outcome: 'delivered' },
      { attempt: 2, outcome: 'delivered' },
    ]);
  });

  it('claims and settles a message in one statement each, prepared by name, outside any transaction block (ADRs 2501, 2820)', async () => {
    const statements: { sql: string; transactionId: string | null }[] = [];
    const counted = await createDatabasePool(database.url, {
      interceptors: [
        {
          name: 'count-statements',
          beforeQueryExecution: (context, query) => {
            statements.push({ sql: query.sql, transactionId: context.transactionId });
            return null;
          },
        },
      ],
    });
    try {
      const event = requestSent([signer({ signer_ref: `sg_${randomUUID().slice(0, 8)}` })]);
      const target = planDeliveries(event)[0]!;
      const countedStore = postgresDeliveryStore(counted);
      await run(
        countedStore.claim({
          key: target.key,
          requestId: 'rq_1',
          signerId: target.signer.signer_id,
          recipient: target.recipient,
          siteId: event.site_id,
          address: target.signer.email,
          leaseMs: 60_000,
        }),
      );
      assert.equal(statements.length, 1, statements.map((s) => s.sql).join('\n---\n'));
      assert.match(statements[0]!.sql, /^\/\* prepared \*\/\s*WITH claimed AS/);
      statements.length = 0;
      const settlement: Settlement = { _tag: 'Delivered', providerMessageId: 'm-1' };
      await run(
        countedStore.settle(
          target.key,
          1,
          settlement,
          outcomeEvent(event, target, settlement, randomUUID(), new Date()),
        ),
      );
      assert.equal(statements.length, 1, statements.map((s) => s.sql).join('\n---\n'));
      assert.equal(statements[0]!.transactionId, null);
      assert.match(statements[0]!.sql, /^\/\* prepared \*\/\s*WITH attempt AS/);
      assert.deepEqual(await outboxFor(event.id), [{ type: 'notification.delivered' }]);
    } finally {
      await counted.end();
    }
  });

  it('rejects with a database outage when the database is gone', async () => {
    const url = new URL(database.url);
    const proxy = await startTcpProxy(Number(url.port || 5432), url.hostname);
    url.host = `127.0.0.1:${proxy.port}`;
    const viaProxy = await createDatabasePool(url.toString());
    proxy.cut();
    const claim = postgresDeliveryStore(viaProxy).claim({
      key: { eventId: randomUUID(), signerRef: 's', channel: 'email' },
      requestId: 'r',
      signerId: 's',
      recipient: 'x@example.com',
      siteId: 1,
      address: 'x@example.com',
      leaseMs: 1000,
    })();
    await assert.rejects(claim, (error: unknown) => isDatabaseUnavailable(error));
    await viaProxy.end().catch(() => undefined);
    await proxy.close();
  });
});
