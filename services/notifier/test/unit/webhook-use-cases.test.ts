import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { decode, CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from '@esign/contracts';
import { webhookUseCases } from '../../src/application/webhooks/webhook-use-cases.js';
import { deliverDueWebhooks } from '../../src/application/webhooks/deliver-due-webhooks.js';
import { MAX_ENDPOINTS_PER_SITE } from '../../src/domain/webhook-endpoint.js';
import type { ClaimedDelivery } from '../../src/ports/webhook-delivery-store.js';
import {
  fakeGuard,
  memoryEndpoints,
  recordingRouting,
  scriptedDeliveries,
  scriptedSender,
} from '../support/webhook-fakes.js';
import { readmeVerifier } from '../support/webhook-receiver.js';
import { hmacWebhookSignature } from '../../src/adapters/crypto/hmac-webhook-signature.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');
const caller = { sites: [{ id: 7, name: 'Acme Lettings' }] };
let n = 0;
const random = {
  secret: () => `whsec_generated_${++n}`,
  uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  jitter: () => 0.5,
};
const body = (url = 'https://hooks.acme.example/h') => {
  const decoded = decode(CreateWebhookEndpointBody)({
    url,
    event_types: ['request.completed', 'request.sent', 'request.completed'],
    alert_email: 'ops@acme.example',
  });
  assert.ok(E.isRight(decoded));
  return decoded.right;
};

describe('webhook use cases (in-memory ports)', () => {
  const setup = (refuse: Record<string, string> = {}, brokerDown = false) => {
    const endpoints = memoryEndpoints();
    const guard = fakeGuard(refuse);
    const routing = recordingRouting(brokerDown);
    const cases = webhookUseCases({
      endpoints: endpoints.store,
      guard: guard.guard,
      random,
      clock: { now: () => NOW },
      routing: routing.routing,
    });
    return { cases, endpoints, guard, routing };
  };

  it('routes the Site’s events to the fan-out when it creates an endpoint there', async () => {
    const { cases, routing } = setup();
    const created = await cases.create({ caller, siteId: 7, body: body() })();
    assert.ok(E.isRight(created));
    assert.deepEqual(routing.followed, [7]);
  });

  it('routes the types an endpoint listens to, at its creation and when an update changes them (ADR 3490)', async () => {
    const { cases, routing } = setup();
    const created = await cases.create({ caller, siteId: 7, body: body() })();
    assert.ok(E.isRight(created));
    const update = async (change: unknown) => {
      const decodedChange = decode(UpdateWebhookEndpointBody)(change);
      assert.ok(E.isRight(decodedChange));
      const result = await cases.update({
        caller,
        siteId: 7,
        endpointId: created.right.id,
        body: decodedChange.right,
      })();
      assert.ok(E.isRight(result));
    };
    await update({ event_types: ['request.created'] });
    await update({ description: 'no new types' });
    assert.deepEqual(routing.followedTypes, [['request.sent', 'request.completed'], ['request.created']]);
    assert.deepEqual(routing.followed, [7, 7]);
  });

  it('writes no endpoint when the broker cannot route the Site’s events', async () => {
    const { cases, endpoints } = setup({}, true);
    const result = await cases.create({ caller, siteId: 7, body: body() })();
    assert.deepEqual(result, E.left({ _tag: 'RoutingUnavailable', reason: 'not connected to the broker' }));
    assert.equal(endpoints.rows.size, 0);
  });

  it('routes nothing for a site outside the caller’s scope or a refused destination', async () => {
    const { cases, routing } = setup({ 'https://intranet.example/h': 'private' });
    await cases.create({ caller, siteId: 8, body: body() })();
    await cases.create({ caller, siteId: 7, body: body('https://intranet.example/h') })();
    assert.deepEqual(routing.followed, []);
  });

  it('creates an endpoint in the caller’s site, showing the secret once', async () => {
    const { cases, endpoints } = setup();
    const created = await cases.create({ caller, siteId: 7, body: body() })();
    assert.ok(E.isRight(created));
    assert.match(created.right.secret, /^whsec_generated_/);
    assert.deepEqual(created.right.event_types, ['request.sent', 'request.completed']);
    assert.equal(endpoints.rows.get(created.right.id)?.siteName, 'Acme Lettings');
    const read = await cases.get({ caller, siteId: 7, endpointId: created.right.id })();
    assert.ok(E.isRight(read));
    assert.equal((read.right as { secret?: string }).secret, undefined);
  });

  it('answers a site outside the caller’s scope as not found, before touching anything', async () => {
    const { cases, guard, endpoints } = setup();
    const result = await cases.create({ caller, siteId: 8, body: body() })();
    assert.deepEqual(result, E.left({ _tag: 'SiteNotFound' }));
    assert.equal(guard.checked.length, 0);
    assert.equal(endpoints.rows.size, 0);
  });

  it('refuses a destination the guard refuses, and writes nothing', async () => {
    const { cases, endpoints } = setup({
      'https://intranet.example/h': 'resolves to 10.0.0.1, a private address',
    });
    const result = await cases.create({ caller, siteId: 7, body: body('https://intranet.example/h') })();
    assert.deepEqual(
      result,
      E.left({ _tag: 'DestinationRefused', reason: 'resolves to 10.0.0.1, a private address' }),
    );
    assert.equal(endpoints.rows.size, 0);
  });

  it('checks a changed URL like a new one; leaves the endpoint as it was when refused', async () => {
    const { cases, endpoints, guard } = setup({ 'https://intranet.example/h': 'private' });
    const created = await cases.create({ caller, siteId: 7, body: body() })();
    assert.ok(E.isRight(created));
    const change = decode(UpdateWebhookEndpointBody)({ url: 'https://intranet.example/h' });
    assert.ok(E.isRight(change));
    const result = await cases.update({
      caller,
      siteId: 7,
      endpointId: created.right.id,
      body: change.right,
    })();
    assert.equal(E.isLeft(result) && result.left._tag, 'DestinationRefused');
    assert.equal(endpoints.rows.get(created.right.id)?.url, 'https://hooks.acme.example/h');
    assert.deepEqual(guard.checked, ['https://hooks.acme.example/h', 'https://intranet.example/h']);
  });

  it('limits endpoints per site', async () => {
    const { cases } = setup();
    for (let i = 0; i < MAX_ENDPOINTS_PER_SITE; i++)
      assert.ok(E.isRight(await cases.create({ caller, siteId: 7, body: body() })()));
    assert.deepEqual(
      await cases.create({ caller, siteId: 7, body: body() })(),
      E.left({ _tag: 'TooManyEndpoints', limit: MAX_ENDPOINTS_PER_SITE }),
    );
  });
});

describe('webhook dispatcher round (in-memory ports)', () => {
  const claim = (overrides: Partial<ClaimedDelivery> = {}): ClaimedDelivery => ({
    id: 'd1',
    eventId: 'e1',
    eventType: 'request.completed',
    payload: '{"id":"e1"}',
    attempt: 1,
    createdAt: NOW,
    endpoint: {
      id: 'w1',
      url: 'https://hooks.acme.example/h',
      enabled: true,
      secret: 'whsec_new',
      previousSecret: 'whsec_old',
      previousSecretExpiresAt: new Date(NOW.getTime() + 60_000).toISOString(),
    },
    ...overrides,
  });
  const deps = (claims: ClaimedDelivery[], sender = scriptedSender()) => {
    const deliveries = scriptedDeliveries(claims);
    const round = TE.toUnion(
      deliverDueWebhooks({
        signature: hmacWebhookSignature,
        deliveries: deliveries.store,
        sender: sender.sender,
        clock: { now: () => NOW },
        random: { jitter: () => 0.5 },
        policy: { baseDelayMs: 1000, maxDelayMs: 10_000, windowMs: 60_000 },
        disableAfterMs: 3 * 86_400_000,
        leaseMs: 60_000,
        concurrency: 4,
      }),
    );
    return { round, deliveries, sender };
  };

  it('signs with every secret in force at send time and records a success', async () => {
    const { verifyWebhook } = await readmeVerifier();
    const { round, deliveries, sender } = deps([claim()]);
    const report = await round();
    assert.equal(report.deliveries.length, 1);
    const [request] = sender.sent;
    assert.ok(request !== undefined);
    const header = request.headers['esign-signature']!;
    assert.ok(verifyWebhook('whsec_new', header, request.body, NOW.getTime()));
    assert.ok(verifyWebhook('whsec_old', header, request.body, NOW.getTime()));
    assert.equal(request.headers['esign-delivery-id'], 'd1');
    assert.deepEqual(deliveries.recorded[0]?.step, { _tag: 'Delivered' });
  });

  it('schedules a retry after a 500, and does not send to an endpoint turned off meanwhile', async () => {
    const failing = scriptedSender({ _tag: 'Response', status: 500, excerpt: 'boom', durationMs: 3 });
    const { round, deliveries } = deps(
      [claim(), claim({ id: 'd2', endpoint: { ...claim().endpoint, enabled: false } })],
      failing,
    );
    await round();
    assert.equal(failing.sent.length, 1);
    assert.deepEqual(deliveries.cancelled, [{ id: 'd2', reason: 'endpoint disabled' }]);
    const step = deliveries.recorded[0]?.step;
    assert.equal(step?._tag, 'Retry');
    assert.equal(step?._tag === 'Retry' && step.at.getTime() - NOW.getTime(), 1000);
    // The endpoint's failure run starts with this attempt.
    assert.deepEqual(deliveries.recorded[0]?.health({ enabled: true, failingSince: null }), {
      failingSince: NOW,
      disable: false,
    });
  });
});
