import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { Registry } from 'prom-client';
import { createDatabasePool, db, migrate, sql, type DatabasePool } from '@esign/platform/database';
import {
  createTestDatabase,
  eventually,
  testGatewayKeys,
  testLogger,
  type TestDatabase,
} from '@esign/testing';
import * as t from 'io-ts';
import { parseConfig } from '../../src/config.js';
import { migrationsDir } from '../../src/migrate.js';
import { startWebhooks } from '../../src/webhooks.js';

const DAY_MS = 86_400_000;

/**
 * Pruning goes by the notifier's clock like every other webhook rule: a test (or a replay)
 * that moves the clock moves the retention cut-off with it.
 */
describe('notifier: webhook deliveries are pruned by the injected clock', () => {
  let database: TestDatabase;
  let pool: DatabasePool;

  before(async () => {
    database = await createTestDatabase('webhook_prune');
    await migrate(database.url, migrationsDir);
    pool = await createDatabasePool(database.url);
  });
  after(async () => {
    await pool?.end();
    await database?.drop();
  });

  const deliveries = async () =>
    (
      await db.one(
        pool,
        t.type({ n: t.number }),
        sql.unsafe`SELECT count(*)::int AS n FROM webhook_deliveries`,
      )
    ).n;

  it('deletes a settled delivery once the clock is past the retention, and only then', async () => {
    const endpoint = randomUUID();
    await pool.query(sql.unsafe`
      INSERT INTO webhook_endpoints (id, site_id, site_name, url, event_types, enabled, alert_email, secret, created_at, updated_at)
      VALUES (${endpoint}, 7, 'Acme', 'https://hooks.example/esign', ARRAY['request.sent'], true, 'ops@example.com', 'whsec_x', now(), now())`);
    for (const status of ['delivered', 'failed'])
      await pool.query(sql.unsafe`
        INSERT INTO webhook_deliveries (id, endpoint_id, site_id, event_id, event_type, payload, status, settled_at)
        VALUES (${randomUUID()}, ${endpoint}, 7, ${randomUUID()}, 'request.sent', '{}', ${status}, now())`);
    assert.equal(await deliveries(), 2);

    const config = parseConfig({
      DATABASE_URL: database.url,
      PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
      KEY_ENCRYPTION_KEYS: 'k1:a-test-key-encryption-secret-of-32-characters',
      WEBHOOKS_RETENTION_DAYS: '30',
      WEBHOOKS_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'silent',
    });
    const start = (now: Date) =>
      startWebhooks(
        config,
        {
          pool,
          logger: testLogger('webhook-prune'),
          email: { send: () => TE.left({ _tag: 'Transient', error: 'unused' }) },
          registry: new Registry(),
        },
        { clock: { now: () => now } },
      );
    const stop = async (webhooks: ReturnType<typeof start>) => {
      for (const step of webhooks.steps) await step.run();
    };

    // 29 days on: within the retention, kept (several dispatcher rounds pass meanwhile).
    const early = start(new Date(Date.now() + 29 * DAY_MS));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stop(early);
    assert.equal(await deliveries(), 2);

    // 31 days on: past it, pruned.
    const late = start(new Date(Date.now() + 31 * DAY_MS));
    try {
      await eventually(async () => ((await deliveries()) === 0 ? true : undefined), 15_000);
    } finally {
      await stop(late);
    }
  });
});
