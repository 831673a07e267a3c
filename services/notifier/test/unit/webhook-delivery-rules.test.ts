import assert from 'node:assert/strict';
import type { AnyEventEnvelope } from '@esign/contracts';
import {
  classify,
  deliverable,
  excerptOf,
  healthAfter,
  nextStep,
  retryDelayMs,
  webhookPayload,
  type AttemptResult,
  type RetryPolicy,
} from '../../src/domain/webhook-delivery.js';
import {
  endpointView,
  rotateSecret,
  signingSecrets,
  updateEndpoint,
} from '../../src/domain/webhook-endpoint.js';
import { composeEndpointDisabled } from '../../src/domain/webhook-alert.js';
import { anEndpoint } from '../support/webhooks.js';

const answer = (status: number): AttemptResult => ({ _tag: 'Response', status, excerpt: '', durationMs: 5 });
const HOUR = 3_600_000;
const policy: RetryPolicy = { baseDelayMs: 60_000, maxDelayMs: 6 * HOUR, windowMs: 72 * HOUR };

describe('webhook delivery rules', () => {
  it('2xx is delivered; 5xx, 408, 429, 3xx, timeouts and refusals are retried; other 4xx are final', () => {
    for (const s of [200, 201, 204, 299]) assert.equal(classify(answer(s)), 'delivered', String(s));
    for (const s of [500, 502, 503, 504, 408, 429, 301, 302, 307])
      assert.equal(classify(answer(s)), 'retry', String(s));
    for (const s of [400, 401, 403, 404, 410, 422]) assert.equal(classify(answer(s)), 'permanent', String(s));
    assert.equal(classify({ _tag: 'NoResponse', error: 'connection refused', durationMs: 1 }), 'retry');
    assert.equal(classify({ _tag: 'Refused', reason: 'loopback' }), 'retry');
  });

  it('backs off exponentially with ±25 % jitter, capped', () => {
    assert.equal(retryDelayMs(1, policy, 0.5), 60_000);
    assert.equal(retryDelayMs(2, policy, 0.5), 120_000);
    assert.equal(retryDelayMs(5, policy, 0.5), 16 * 60_000);
    assert.equal(retryDelayMs(1, policy, 0), 45_000);
    assert.equal(retryDelayMs(1, policy, 0.999999), 75_000);
    assert.equal(retryDelayMs(30, policy, 0.5), 6 * HOUR);
    assert.ok(retryDelayMs(30, policy, 0.999999) <= 6 * HOUR * 1.25);
  });

  it('keeps retrying for at least 24 hours with the default policy, then gives up at the window', () => {
    const created = new Date('2030-01-01T00:00:00Z');
    let now = created;
    let attempt = 1;
    const failure: AttemptResult = {
      _tag: 'NoResponse',
      error: 'no answer within 10000 ms',
      durationMs: 10_000,
    };
    for (;;) {
      const step = nextStep(failure, attempt, created, now, policy, 0.5);
      if (step._tag !== 'Retry') {
        assert.equal(step._tag, 'Failed');
        assert.match(step._tag === 'Failed' ? step.error : '', /gave up after \d+ attempts: no answer/);
        break;
      }
      now = step.at;
      attempt++;
    }
    const span = now.getTime() - created.getTime();
    assert.ok(span >= 24 * HOUR && span <= 72 * HOUR, `retried for ${span / HOUR} h`);
    assert.ok(attempt >= 15, `${attempt} attempts`);
  });

  it('a final 4xx fails at once; a success is delivered', () => {
    const created = new Date();
    assert.deepEqual(nextStep(answer(410), 1, created, created, policy, 0.5), {
      _tag: 'Failed',
      error: 'refused by the endpoint: HTTP 410',
    });
    assert.deepEqual(nextStep(answer(204), 3, created, created, policy, 0.5), { _tag: 'Delivered' });
  });

  it('tracks an endpoint failure run and turns it off after the threshold, once', () => {
    const t0 = new Date('2030-01-01T00:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    const first = healthAfter({ enabled: true, failingSince: null }, false, t0, 72 * HOUR);
    assert.deepEqual(first, { failingSince: t0, disable: false });
    assert.deepEqual(healthAfter({ enabled: true, failingSince: t0 }, false, later(71 * HOUR), 72 * HOUR), {
      failingSince: t0,
      disable: false,
    });
    assert.equal(
      healthAfter({ enabled: true, failingSince: t0 }, false, later(72 * HOUR), 72 * HOUR).disable,
      true,
    );
    assert.equal(
      healthAfter({ enabled: false, failingSince: t0 }, false, later(80 * HOUR), 72 * HOUR).disable,
      false,
    );
    assert.deepEqual(healthAfter({ enabled: true, failingSince: t0 }, true, later(71 * HOUR), 72 * HOUR), {
      failingSince: null,
      disable: false,
    });
  });

  it('keeps a response body only as a short excerpt, cut on a character boundary, without NULs', () => {
    const long = Buffer.from('é'.repeat(600)); // 1200 bytes
    const excerpt = excerptOf(long, 1024);
    assert.equal(excerpt, 'é'.repeat(512));
    assert.equal(excerptOf(Buffer.from('é'.repeat(600)), 1023), 'é'.repeat(511));
    assert.equal(excerptOf(Buffer.from('a\u0000b'), 1024), 'ab');
  });

  it('delivers only the listed request events, as { id, type, created_at, site_id, data }', () => {
    const event = (type: string): AnyEventEnvelope => ({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      type,
      occurred_at: '2030-01-31T12:00:00.000Z',
      site_id: 7,
      aggregate_id: 'rq_1',
      data: { request_id: 'rq_1', signer: { signer_id: 'a@example.com' } },
    });
    for (const type of ['notification.delivered', 'notification.failed', 'request.whatever'])
      assert.equal(deliverable(event(type)), false, type);
    const signed = event('request.signed');
    assert.ok(deliverable(signed));
    assert.ok(deliverable(event('request.created')), 'a Request made (ADR 3490)');
    assert.deepEqual(JSON.parse(webhookPayload(signed)), {
      id: signed.id,
      type: 'request.signed',
      created_at: signed.occurred_at,
      site_id: 7,
      data: signed.data,
    });
    // Issue #22: a test-mode Request's events say so to webhooks; real ones carry no mark.
    const test = { ...signed, test_mode: true as const };
    assert.equal((JSON.parse(webhookPayload(test)) as { test_mode?: boolean }).test_mode, true);
    assert.equal('test_mode' in (JSON.parse(webhookPayload(signed)) as object), false);
  });

  it('LOW 8: request.sent and request.reminded reach webhooks with signer references, never Execution URLs', () => {
    for (const type of ['request.sent', 'request.reminded']) {
      const data = {
        request_id: 'rq_1',
        site: { id: 7, name: 'Acme' },
        contracts: [{ id: 1, name: 'NDA' }],
        signers: [
          {
            signer_id: 'a@example.com',
            signer_ref: 'ref-a',
            email: 'a@example.com',
            mobile_number: null,
            send_to: { email: true, mobile_number: false },
            request_url: 'https://esign.example/sign?r=rq_1&s=ref-a&signature=k1.secret',
          },
        ],
        expires_at: null,
        // ADRs 3380, 3400: the message and subject are the Request's, not repeated to webhooks.
        message: 'Please sign by Friday.',
        subject: 'Your lease for Quay Street',
      };
      const payload = webhookPayload({
        id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        type: type as 'request.sent',
        occurred_at: '2030-01-31T12:00:00.000Z',
        site_id: 7,
        aggregate_id: 'rq_1',
        data,
      });
      assert.ok(!payload.includes('signature='), type);
      const { request_url: _url, ...reference } = data.signers[0]!;
      assert.deepEqual(
        (JSON.parse(payload) as { data: { signers: unknown } }).data.signers,
        [reference],
        type,
      );
      assert.ok(!payload.includes('Friday') && !payload.includes('Quay Street'), type);
    }
  });
});

describe('webhook endpoints: rotation, updates, views', () => {
  const now = new Date('2030-01-01T00:00:00Z');

  it('signs with both secrets during the overlap, with the new one only after it', () => {
    const rotated = rotateSecret(anEndpoint({ secret: 'whsec_old' }), 'whsec_new', 3600, now);
    assert.deepEqual(signingSecrets(rotated, now), ['whsec_new', 'whsec_old']);
    assert.deepEqual(signingSecrets(rotated, new Date(now.getTime() + 3_599_000)), [
      'whsec_new',
      'whsec_old',
    ]);
    assert.deepEqual(signingSecrets(rotated, new Date(now.getTime() + 3_600_000)), ['whsec_new']);
    assert.equal(endpointView(rotated, now).previous_secret_expires_at, '2030-01-01T01:00:00.000Z');
    assert.equal(endpointView(rotated, new Date(now.getTime() + 3_600_000)).previous_secret_expires_at, null);
    const immediate = rotateSecret(rotated, 'whsec_newer', 0, now);
    assert.deepEqual(signingSecrets(immediate, now), ['whsec_newer']);
    // A second rotation drops the oldest: never more than two secrets.
    assert.deepEqual(signingSecrets(rotateSecret(rotated, 'whsec_3', 60, now), now), [
      'whsec_3',
      'whsec_new',
    ]);
  });

  it('never shows a secret', () => {
    const view = endpointView(rotateSecret(anEndpoint(), 'whsec_new', 60, now), now);
    assert.ok(!JSON.stringify(view).includes('whsec_'));
  });

  it('turning an endpoint back on, or pointing it elsewhere, restarts its failure run', () => {
    const off = anEndpoint({
      enabled: false,
      disabledReason: 'failing',
      failingSince: '2029-12-01T00:00:00.000Z',
    });
    const on = updateEndpoint(off, { enabled: true }, 'Acme', now);
    assert.equal(on.enabled, true);
    assert.equal(on.disabledReason, null);
    assert.equal(on.failingSince, null);
    const failing = anEndpoint({ failingSince: '2029-12-01T00:00:00.000Z' });
    assert.equal(
      updateEndpoint(failing, { description: 'x' }, 'Acme', now).failingSince,
      failing.failingSince,
    );
    assert.equal(
      updateEndpoint(failing, { url: 'https://elsewhere.example.com/h' }, 'Acme', now).failingSince,
      null,
    );
    assert.equal(updateEndpoint(anEndpoint(), { enabled: false }, 'Acme', now).disabledReason, null);
  });

  it('the alert e-mail says what, why, and how to turn it back on, with client values escaped', () => {
    const mail = composeEndpointDisabled({
      endpointId: 'e1',
      siteId: 7,
      siteName: 'Acme <b>Lettings</b>\r\nBcc: x@evil.example',
      url: 'https://hooks.example.com/x',
      failingSince: '2030-01-01T00:00:00.000Z',
      disabledAt: '2030-01-04T00:00:00.000Z',
      lastError: 'HTTP 503',
    });
    assert.ok(!/[\r\n]/.test(mail.subject));
    assert.match(mail.text, /https:\/\/hooks\.example\.com\/x/);
    assert.match(mail.text, /since 2030-01-01 00:00 UTC/);
    assert.match(mail.text, /PATCH \/v1\.1\/sites\/7\/webhooks\/e1 with \{"enabled": true\}/);
    assert.ok(!mail.html.includes('<b>'));
  });
});
