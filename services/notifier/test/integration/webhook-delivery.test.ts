import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import PostalMime from 'postal-mime';
import type { AnyEventEnvelope } from '@esign/contracts';
import { createDatabasePool, db, migrate, sql, type DatabasePool } from '@esign/platform';
import { createTestDatabase, testLogger, type TestDatabase } from '@esign/testing';
import { migrationsDir } from '../../src/migrate.js';
import {
  deliverDueWebhooks,
  type DeliverWebhooksDeps,
} from '../../src/application/webhooks/deliver-due-webhooks.js';
import { fanOutWebhookEvent } from '../../src/application/webhooks/fan-out-webhook-event.js';
import { sendWebhookAlerts } from '../../src/application/webhooks/send-webhook-alerts.js';
import { postgresWebhookDeliveryStore } from '../../src/adapters/postgres/postgres-webhook-delivery-store.js';
import type { ClaimedDelivery } from '../../src/ports/webhook-delivery-store.js';
import {
  postgresWebhookEndpointStore,
  sealLegacyWebhookSecrets,
} from '../../src/adapters/postgres/postgres-webhook-endpoint-store.js';
import { localEmailOutbox } from '../../src/adapters/local-outbox/local-outbox.js';
import { destinationPolicy, type Resolver } from '../../src/adapters/webhook-http/destination-policy.js';
import { undiciWebhookSender } from '../../src/adapters/webhook-http/undici-webhook-sender.js';
import { MAX_ENDPOINTS_PER_SITE, type WebhookEndpoint } from '../../src/domain/webhook-endpoint.js';
import { anEndpoint, testSealer } from '../support/webhooks.js';
import {
  readmeVerifier,
  startWebhookReceiver,
  type VerifyWebhook,
  type WebhookReceiver,
} from '../support/webhook-receiver.js';
import { emlRenderer } from '../../src/adapters/smtp/mail-options.js';
import { hmacWebhookSignature } from '../../src/adapters/crypto/hmac-webhook-signature.js';

const FAST = { baseDelayMs: 20, maxDelayMs: 100, windowMs: 60_000 };
let siteCounter = 100;

/**
 * The dispatcher's round (claim, sign, send, record) against real Postgres and a local
 * HTTP receiver on 127.0.0.1, with the undici sender and its SSRF guard. Rounds are
 * run by hand, so each test sees exactly the attempts it caused.
 */
describe('webhook deliveries: dispatcher, sender and store', function () {
  let database: TestDatabase;
  let pool: DatabasePool;
  let receiver: WebhookReceiver;
  let verifyWebhook: VerifyWebhook;
  let outboxDir: string;
  const deliveries = () =>
    postgresWebhookDeliveryStore(pool, { inboxConsumer: 'notifier-webhooks', sealer: testSealer });
  const endpoints = () => postgresWebhookEndpointStore(pool, testSealer);

  /** DNS as the tests want it: names map to addresses; a name may answer differently on each lookup. */
  const answers = new Map<string, string[]>();
  const resolve: Resolver = (hostname) => {
    const queue = answers.get(hostname);
    if (queue === undefined || queue.length === 0)
      return Promise.reject(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const address = queue.length > 1 ? queue.shift()! : queue[0]!;
    return Promise.resolve([{ address, family: 4 as const }]);
  };

  // Time-outs a busy 2-core machine meets with margin: a local receiver can take seconds to
  // answer there. The one test of a silent endpoint shortens the response time-out itself.
  const dispatcher = (
    overrides: Partial<DeliverWebhooksDeps> & { allowPrivate?: boolean; responseTimeoutMs?: number } = {},
  ) => {
    const policy = destinationPolicy({
      allowHttp: true,
      allowPrivateAddresses: overrides.allowPrivate ?? true,
      resolve,
    });
    const round = deliverDueWebhooks({
      signature: hmacWebhookSignature,
      deliveries: deliveries(),
      sender: undiciWebhookSender({
        policy,
        connectTimeoutMs: 10_000,
        responseTimeoutMs: overrides.responseTimeoutMs ?? 10_000,
      }),
      clock: { now: () => new Date() },
      random: { jitter: () => 0.5 },
      policy: FAST,
      disableAfterMs: 3 * 86_400_000,
      leaseMs: 5_000,
      concurrency: 8,
      ...overrides,
    });
    return TE.toUnion(round);
  };

  const register = async (overrides: Partial<WebhookEndpoint> = {}) => {
    const endpoint = anEndpoint({ siteId: ++siteCounter, ...overrides });
    const created = await endpoints().create(endpoint, MAX_ENDPOINTS_PER_SITE)();
    assert.ok(E.isRight(created));
    return endpoint;
  };

  const event = (siteId: number, type = 'request.completed'): AnyEventEnvelope => ({
    id: randomUUID(),
    type,
    occurred_at: new Date().toISOString(),
    site_id: siteId,
    aggregate_id: 'rq_1',
    data: { request_id: 'rq_1', state: 'completed' },
  });

  const fanOut = (e: AnyEventEnvelope) =>
    TE.toUnion(fanOutWebhookEvent({ deliveries: deliveries(), wake: () => undefined })(e))();

  /** The endpoint as the store reads it back. */
  const stored = (endpoint: WebhookEndpoint) => TE.toUnion(endpoints().get(endpoint.siteId, endpoint.id))();

  const Row = t.type({
    id: t.string,
    status: t.string,
    attempts: t.number,
    response_status: t.union([t.number, t.null]),
    response_excerpt: t.union([t.string, t.null]),
    last_error: t.union([t.string, t.null]),
  });
  const deliveryOf = (endpointId: string) =>
    db.one(
      pool,
      Row,
      sql.unsafe`SELECT id, status, attempts, response_status, response_excerpt, last_error
                 FROM webhook_deliveries WHERE endpoint_id = ${endpointId}`,
    );
  const attemptsOf = (deliveryId: string) =>
    db.any(
      pool,
      t.type({
        attempt: t.number,
        outcome: t.union([t.string, t.null]),
        response_status: t.union([t.number, t.null]),
        error: t.union([t.string, t.null]),
      }),
      sql.unsafe`SELECT attempt, outcome, response_status, error FROM webhook_delivery_attempts
                 WHERE delivery_id = ${deliveryId} ORDER BY attempt`,
    );
  /** Runs rounds until the endpoint's delivery is settled (waiting out back-off), or fails. */
  const untilSettled = async (round: () => Promise<unknown>, endpointId: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await round();
      const row = await deliveryOf(endpointId);
      if (row.status === 'delivered' || row.status === 'failed') return row;
      if (Date.now() > deadline) throw new Error(`delivery still ${row.status}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  before(async () => {
    database = await createTestDatabase('webhook_delivery');
    await migrate(database.url, migrationsDir);
    pool = await createDatabasePool(database.url);
    receiver = await startWebhookReceiver();
    ({ verifyWebhook } = await readmeVerifier());
    outboxDir = await mkdtemp(join(tmpdir(), 'webhook-alerts-'));
  });

  after(async () => {
    await receiver?.close();
    await pool?.end();
    await database?.drop();
    if (outboxDir !== undefined) await rm(outboxDir, { recursive: true, force: true });
  });

  const storedSecrets = (endpointId: string) =>
    db.one(
      pool,
      t.type({ secret: t.string, previous_secret: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT secret, previous_secret FROM webhook_endpoints WHERE id = ${endpointId}`,
    );

  it('L11: keeps webhook secrets sealed in their rows, and deliveries still verify', async () => {
    const endpoint = await register({
      url: receiver.url('/sealed'),
      eventTypes: ['request.completed'],
      previousSecret: 'whsec_the-previous-secret-still-in-its-overlap',
      previousSecretExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const row = await storedSecrets(endpoint.id);
    for (const stored of [row.secret, row.previous_secret!]) {
      assert.match(stored, /^sealed:k1:[A-Za-z0-9_-]+$/);
      assert.ok(!stored.includes(endpoint.secret.slice('whsec_'.length)), 'no plaintext in the row');
      assert.ok(!stored.includes('the-previous-secret'), 'no plaintext in the row');
    }
    // The seal is bound to its endpoint: copied to another row it does not open.
    assert.throws(() => testSealer.open(row.secret, 'webhook-secret:another-endpoint'));
    const read = await stored(endpoint);
    assert.ok(O.isSome(read));
    assert.equal(read.value.secret, endpoint.secret);

    await fanOut(event(endpoint.siteId));
    await untilSettled(dispatcher(), endpoint.id);
    const [got] = receiver.on('/sealed');
    assert.ok(got !== undefined);
    const header = got.headers['esign-signature'] as string;
    assert.equal(verifyWebhook(endpoint.secret, header, got.body), true);
    assert.equal(verifyWebhook(endpoint.previousSecret!, header, got.body), true);
  });

  it('L11: seals the secrets of rows stored in the clear before sealing began, once', async () => {
    const endpoint = await register({ url: receiver.url('/legacy'), eventTypes: ['request.completed'] });
    await db.exec(
      pool,
      sql.unsafe`UPDATE webhook_endpoints SET secret = ${endpoint.secret} WHERE id = ${endpoint.id}`,
    );
    const legacy = await stored(endpoint);
    assert.ok(O.isSome(legacy) && legacy.value.secret === endpoint.secret, 'read while still in the clear');
    assert.ok((await sealLegacyWebhookSecrets(pool, testSealer)) >= 1);
    assert.match((await storedSecrets(endpoint.id)).secret, /^sealed:k1:/);
    assert.equal(await sealLegacyWebhookSecrets(pool, testSealer), 0);
    await fanOut(event(endpoint.siteId));
    await untilSettled(dispatcher(), endpoint.id);
    const [got] = receiver.on('/legacy');
    assert.ok(got !== undefined);
    assert.equal(verifyWebhook(endpoint.secret, got.headers['esign-signature'] as string, got.body), true);
  });

  it('POSTs the event to each subscribed endpoint, signed so that the README snippet verifies it', async () => {
    const endpoint = await register({ url: receiver.url('/ok'), eventTypes: ['request.completed'] });
    const e = event(endpoint.siteId);
    assert.deepEqual(await fanOut(e), { _tag: 'FannedOut', deliveries: 1 });
    await untilSettled(dispatcher(), endpoint.id);

    const [got] = receiver.on('/ok');
    assert.ok(got !== undefined);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['esign-event-type'], 'request.completed');
    assert.equal(got.headers['user-agent'], 'Esign-Webhooks/1.1');
    assert.equal(verifyWebhook(endpoint.secret, got.headers['esign-signature'] as string, got.body), true);
    assert.deepEqual(JSON.parse(got.body), {
      id: e.id,
      type: 'request.completed',
      created_at: e.occurred_at,
      site_id: endpoint.siteId,
      data: e.data,
    });
    // Replayed 6 minutes later, or with a changed body, the same delivery is refused.
    const header = got.headers['esign-signature'] as string;
    assert.equal(verifyWebhook(endpoint.secret, header, got.body, Date.now() + 6 * 60_000), false);
    assert.equal(verifyWebhook(endpoint.secret, header, got.body.replace('completed', 'cancelled')), false);

    const row = await deliveryOf(endpoint.id);
    assert.equal(row.status, 'delivered');
    assert.equal(row.response_status, 200);
    assert.equal(row.response_excerpt, 'ok');
    assert.equal(got.headers['esign-delivery-id'], row.id);
  });

  it('fans out once per event, only to enabled endpoints of that site subscribed to its type', async () => {
    const a = await register({ url: receiver.url('/a'), eventTypes: ['request.signed'] });
    const b = await register({
      siteId: a.siteId,
      url: receiver.url('/b'),
      eventTypes: ['request.completed'],
    });
    await register({
      siteId: a.siteId,
      url: receiver.url('/c'),
      eventTypes: ['request.signed'],
      enabled: false,
    });
    await register({ url: receiver.url('/d'), eventTypes: ['request.signed'] }); // another site
    const signed = event(a.siteId, 'request.signed');
    assert.deepEqual(await fanOut(signed), { _tag: 'FannedOut', deliveries: 1 });
    assert.deepEqual(await fanOut(signed), { _tag: 'FannedOut', deliveries: 0 }); // redelivered by RabbitMQ
    assert.deepEqual(await fanOut(event(a.siteId, 'notification.delivered')), { _tag: 'NotDeliverable' });
    assert.deepEqual(await fanOut(event(a.siteId, 'request.created')), { _tag: 'NotDeliverable' });
    const { count } = await db.one(
      pool,
      t.type({ count: t.number }),
      sql.unsafe`SELECT count(*)::int AS count FROM webhook_deliveries WHERE site_id = ${a.siteId}`,
    );
    assert.equal(count, 1);
    assert.equal((await deliveryOf(a.id)).status, 'pending');
    await untilSettled(dispatcher(), a.id);
    assert.equal(receiver.on('/b').length + receiver.on('/c').length + receiver.on('/d').length, 0);
    void b;
  });

  it('retries a 500 with back-off, then succeeds; every attempt is recorded', async () => {
    const endpoint = await register({ url: receiver.url('/flaky') });
    receiver.script('/flaky', { status: 500, body: 'boom' }, { status: 503, body: 'later' });
    await fanOut(event(endpoint.siteId));
    const row = await untilSettled(dispatcher(), endpoint.id);
    assert.equal(row.status, 'delivered');
    assert.equal(row.attempts, 3);
    const got = receiver.on('/flaky');
    assert.equal(got.length, 3);
    // The same body every time, signed afresh each time.
    assert.ok(got.every((g) => g.body === got[0]!.body));
    assert.ok(
      got.every((g) => verifyWebhook(endpoint.secret, g.headers['esign-signature'] as string, g.body)),
    );
    assert.ok(got[1]!.at - got[0]!.at >= 15, 'waited before retrying');
    assert.deepEqual(
      (await attemptsOf(row.id)).map((a) => [a.attempt, a.outcome, a.response_status]),
      [
        [1, 'retry', 500],
        [2, 'retry', 503],
        [3, 'delivered', 200],
      ],
    );
  });

  it('a 4xx other than 408/429 fails the delivery at once; a 429 is retried', async () => {
    const refused = await register({ url: receiver.url('/gone') });
    receiver.script('/gone', { status: 410, body: 'no such hook' });
    await fanOut(event(refused.siteId));
    const row = await untilSettled(dispatcher(), refused.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, 'refused by the endpoint: HTTP 410');
    assert.equal(row.response_excerpt, 'no such hook');

    const limited = await register({ url: receiver.url('/limited') });
    receiver.script('/limited', { status: 429 });
    await fanOut(event(limited.siteId));
    assert.equal((await untilSettled(dispatcher(), limited.id)).attempts, 2);
  });

  it('keeps only the first KB of an answer, does not follow redirects, and times out a silent endpoint', async () => {
    const chatty = await register({ url: receiver.url('/chatty') });
    receiver.script('/chatty', { status: 200, body: 'x'.repeat(100_000) });
    await fanOut(event(chatty.siteId));
    assert.equal((await untilSettled(dispatcher(), chatty.id)).response_excerpt?.length, 1024);

    const moved = await register({ url: receiver.url('/moved') });
    receiver.script('/moved', { status: 302, headers: { location: receiver.url('/target') } });
    await fanOut(event(moved.siteId));
    await dispatcher()();
    assert.equal((await deliveryOf(moved.id)).response_status, 302);
    assert.equal((await deliveryOf(moved.id)).status, 'pending');
    assert.equal(receiver.on('/target').length, 0);

    const silent = await register({ url: receiver.url('/silent') });
    receiver.script('/silent', { hang: true });
    await fanOut(event(silent.siteId));
    await dispatcher({ responseTimeoutMs: 500 })();
    const row = await deliveryOf(silent.id);
    assert.equal(row.status, 'pending');
    assert.equal(row.last_error, 'no answer within 500 ms');
  });

  it('by default refuses a loopback address at delivery: nothing reaches the receiver', async () => {
    const endpoint = await register({ url: receiver.url('/private') });
    await fanOut(event(endpoint.siteId));
    await dispatcher({ allowPrivate: false })();
    const row = await deliveryOf(endpoint.id);
    assert.equal(row.status, 'pending');
    assert.match(row.last_error ?? '', /not sent: the URL is a loopback address/);
    assert.equal(receiver.on('/private').length, 0);
  });

  it('refuses a host that resolved to a public address at registration and to 127.0.0.1 at delivery (DNS rebinding)', async () => {
    const policy = destinationPolicy({ allowHttp: true, allowPrivateAddresses: false, resolve });
    // The first answer is public (registration passes), every later one is the receiver's loopback.
    answers.set('rebind.example.test', ['93.184.215.14', '127.0.0.1']);
    const url = `http://rebind.example.test:${receiver.port}/rebind`;
    assert.ok(E.isRight(await policy.check(url)()));
    const endpoint = await register({ url });
    await fanOut(event(endpoint.siteId));
    await dispatcher({ allowPrivate: false })();
    const row = await deliveryOf(endpoint.id);
    assert.match(row.last_error ?? '', /resolves to 127\.0\.0\.1, a loopback address/);
    assert.equal(receiver.on('/rebind').length, 0);
  });

  it('connects to the address it checked, not to a second DNS answer', async () => {
    // Checked answer: 127.0.0.1 (allowed here); any later lookup would say 10.255.255.1,
    // which must never be contacted: the pinned address is used for the connection.
    answers.set('pinned.example.test', ['127.0.0.1', '10.255.255.1']);
    const endpoint = await register({ url: `http://pinned.example.test:${receiver.port}/pinned` });
    await fanOut(event(endpoint.siteId));
    const row = await untilSettled(dispatcher(), endpoint.id);
    assert.equal(row.status, 'delivered');
    assert.equal(receiver.on('/pinned').length, 1);
    assert.equal(receiver.on('/pinned')[0]!.headers.host, `pinned.example.test:${receiver.port}`);
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
