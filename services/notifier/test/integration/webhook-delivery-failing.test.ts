import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import PostalMime from 'postal-mime';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import { testLogger } from '@esign/testing';
import { sendWebhookAlerts } from '../../src/application/webhooks/send-webhook-alerts.js';
import type { ClaimedDelivery } from '../../src/ports/webhook-delivery-store.js';
import { localEmailOutbox } from '../../src/adapters/local-outbox/local-outbox.js';
import { emlRenderer } from '../../src/adapters/smtp/mail-options.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { webhookDeliveryFixture } from '../support/webhook-delivery-fixture.js';

describe('webhook deliveries: dispatcher, sender and store (failing endpoints and lapsed leases)', function () {
  const { ctx, deliveries, register, event, fanOut, stored, dispatcher, deliveryOf } =
    webhookDeliveryFixture('webhook_delivery_failing');
  let pool: DatabasePool;
  let receiver: WebhookReceiver;
  let outboxDir: string;

  before(async () => {
    ({ pool, receiver } = ctx);
    outboxDir = await mkdtemp(join(tmpdir(), 'webhook-alerts-'));
  });

  after(async () => {
    if (outboxDir !== undefined) await rm(outboxDir, { recursive: true, force: true });
  });

  it('turns off an endpoint that keeps failing, cancels what waits for it, and e-mails its alert address once', async () => {
    const endpoint = await register({ url: receiver.url('/down'), alertEmail: 'ops@site.example' });
    receiver.script('/down', { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    await fanOut(event(endpoint.siteId));
    await fanOut(event(endpoint.siteId, 'request.sent'));
    // Failing "for days" is 50 ms here.
    const round = dispatcher({ disableAfterMs: 50, concurrency: 1 });
    await round();
    await new Promise((r) => setTimeout(r, 80));
    for (let i = 0; i < 20; i++) {
      await round();
      const now = await stored(endpoint);
      if (O.isSome(now) && !now.value.enabled) break;
      await new Promise((r) => setTimeout(r, 30));
    }
    const disabled = await stored(endpoint);
    assert.ok(O.isSome(disabled));
    assert.equal(disabled.value.enabled, false);
    assert.equal(disabled.value.disabledReason, 'failing');
    const states = await db.any(
      pool,
      t.type({ status: t.string, last_error: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT status, last_error FROM webhook_deliveries WHERE endpoint_id = ${endpoint.id}`,
    );
    assert.ok(
      states.every((s) => s.status === 'failed'),
      JSON.stringify(states),
    );

    const email = localEmailOutbox({
      dir: outboxDir,
      render: emlRenderer('E-signature <no-reply@esign.example>'),
      logger: testLogger('alerts'),
    });
    const send = TE.toUnion(
      sendWebhookAlerts({
        deliveries: deliveries(),
        email,
        clock: { now: () => new Date() },
        leaseMs: 5_000,
      }),
    );
    assert.deepEqual(await send(), { sent: 1, failed: 0 });
    assert.deepEqual(await send(), { sent: 0, failed: 0 });
    const files = await readdir(join(outboxDir, 'email'));
    assert.equal(files.length, 1);
    const mail = await PostalMime.parse(await readFile(join(outboxDir, 'email', files[0]!)));
    assert.equal(mail.to?.[0]?.address, 'ops@site.example');
    assert.match(mail.subject ?? '', /Webhook endpoint disabled for Acme Lettings/);
    assert.match(mail.text ?? '', new RegExp(`${receiver.url('/down').replace(/[.?]/g, '\\$&')}`));
    assert.match(mail.text ?? '', /HTTP 500/);
  });

  it('takes a delivery back from a worker whose lease ran out, and ignores that worker’s late result', async () => {
    const endpoint = await register({ url: receiver.url('/lease') });
    await fanOut(event(endpoint.siteId));
    const store = deliveries();
    // Earlier tests' retries may be due too (a busy machine reaches them later): this one's only.
    const own = (claimed: readonly ClaimedDelivery[]) => claimed.find((d) => d.endpoint.id === endpoint.id);
    const first = own(await TE.toUnion(store.claimDue(100, 1))());
    assert.ok(first !== undefined && first.attempt === 1);
    await new Promise((r) => setTimeout(r, 20));
    const second = own(await TE.toUnion(store.claimDue(100, 5_000))());
    assert.ok(second !== undefined && second.id === first.id && second.attempt === 2);
    const late = await TE.toUnion(
      store.recordAttempt({
        delivery: first,
        result: { _tag: 'Response', status: 500, excerpt: '', durationMs: 1 },
        step: { _tag: 'Failed', error: 'late' },
        startedAt: new Date(),
        finishedAt: new Date(),
        health: () => ({ failingSince: new Date(), disable: true }),
      }),
    )();
    assert.deepEqual(late, { recorded: false, disabled: false });
    assert.equal((await deliveryOf(endpoint.id)).status, 'sending');
  });
});
