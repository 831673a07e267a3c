import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { createDatabasePool, migrate, type DatabasePool } from '@esign/platform/database';
import { createTestDatabase, type TestDatabase } from '@esign/testing';
import { postgresTestInbox } from '../../src/adapters/postgres/postgres-test-inbox.js';
import { migrationsDir } from '../../src/migrate.js';
import type { KeptMessage, TestInbox } from '../../src/ports/test-inbox.js';

/** The test-mode inbox on real Postgres (issue #22, ADR 2200). */
describe('notifier adapter: Postgres test-mode inbox', () => {
  let database: TestDatabase;
  let pool: DatabasePool;
  let inbox: TestInbox;

  before(async () => {
    database = await createTestDatabase('notifier_test_inbox');
    await migrate(database.url, migrationsDir);
    pool = await createDatabasePool(database.url);
    inbox = postgresTestInbox(pool);
  });
  after(async () => {
    await pool.end();
    await database.drop();
  });

  const list = (...args: Parameters<TestInbox['list']>) => TE.toUnion(inbox.list(...args))();

  const message = (requestId: string, channel: 'email' | 'sms', eventId = randomUUID()): KeptMessage => ({
    key: { eventId, signerRef: 'ref1', channel },
    eventType: 'request.sent',
    requestId,
    siteId: 7,
    signerId: 'ann@example.com',
    recipient: channel === 'email' ? 'ann@example.com' : '+12025550101',
    subject: channel === 'email' ? 'Acme sent you NDA to sign' : null,
    body: 'Sign here: https://esign.example/sign?r=1',
    html: channel === 'email' ? '<p>Sign</p>' : null,
    executionUrl: 'https://esign.example/sign?r=1',
  });

  it('keeps a message once per key, answering the same id for a repeat', async () => {
    const requestId = randomUUID();
    const first = message(requestId, 'email');
    const a = await inbox.keep(first)();
    const b = await inbox.keep({ ...first, body: 'a redelivery renders the same; the first copy wins' })();
    assert.ok(E.isRight(a) && E.isRight(b));
    assert.equal(a.right.providerMessageId, b.right.providerMessageId);
    const page = await list(requestId, [7], { page: 1, perPage: 10 });
    assert.equal(page.total, 1);
    assert.equal(page.items[0]!.body, first.body);
  });

  it("lists one Request's messages, oldest first, only for the caller's Sites, in pages", async () => {
    const requestId = randomUUID();
    await inbox.keep(message(requestId, 'email'))();
    await inbox.keep(message(requestId, 'sms'))();
    await inbox.keep(message(randomUUID(), 'email'))();
    const all = await list(requestId, [7], { page: 1, perPage: 10 });
    assert.deepEqual(
      all.items.map((m) => [m.key.channel, m.recipient, m.subject]),
      [
        ['email', 'ann@example.com', 'Acme sent you NDA to sign'],
        ['sms', '+12025550101', null],
      ],
    );
    assert.deepEqual(await list(requestId, [8], { page: 1, perPage: 10 }), { items: [], total: 0 });
    assert.deepEqual(await list('not-a-uuid', [7], { page: 1, perPage: 10 }), { items: [], total: 0 });
    const second = await list(requestId, [7], { page: 2, perPage: 1 });
    assert.deepEqual([second.total, second.items.map((m) => m.key.channel)], [2, ['sms']]);
  });
});
