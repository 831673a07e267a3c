import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { principalKeys, testGatewayKeys } from '@esign/testing';
import { WebhookEndpointList, WebhookEndpointWithSecret, PRINCIPAL_AUDIENCES } from '@esign/contracts';
import { postgresWebhookEndpointStore } from '../../src/adapters/postgres/postgres-webhook-endpoint-store.js';
import { decoded, fieldErrors, testSealer } from '../support/webhooks.js';
import { SITE, valid, webhookApiFixture } from '../support/webhook-api-fixture.js';

describe('webhook API: /v1.1/sites/:id/webhooks (access, and managing endpoints)', function () {
  const { ctx, call, asCaller, create } = webhookApiFixture('webhook_api_endpoints');

  it('M5: refuses a principal the gateway addressed to another service, and the introspection credential', async () => {
    const sites = [{ id: SITE, name: 'x' }];
    const forRequests = await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.requests, {
      sub: 'u',
      token_id: 't',
      sites,
    });
    const replayed = await call().get(`/v1.1/sites/${SITE}/webhooks`).set('x-esign-principal', forRequests);
    assert.equal(replayed.status, 401);
    assert.equal(replayed.body.code, 'invalid_principal');
    const bearer = await call()
      .get(`/v1.1/sites/${SITE}/webhooks`)
      .set('x-esign-principal', 'an-introspection-secret-of-32-characters');
    assert.equal(bearer.status, 401);
    assert.equal(bearer.body.code, 'invalid_principal');
  });

  it('refuses a call without a valid principal (401), and a site outside it exactly like an unknown one (404)', async () => {
    const none = await call().get(`/v1.1/sites/${SITE}/webhooks`);
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'unauthenticated');
    assert.match(none.headers['content-type'] ?? '', /application\/problem\+json/);
    const forged = await call()
      .get(`/v1.1/sites/${SITE}/webhooks`)
      .set(
        'x-esign-principal',
        await principalKeys().sign(PRINCIPAL_AUDIENCES.notifier, {
          sub: 'u',
          token_id: 't',
          sites: [{ id: SITE, name: 'x' }],
        }),
      );
    assert.equal(forged.status, 401);
    assert.equal(forged.body.code, 'invalid_principal');

    const outside = await asCaller(call().get('/v1.1/sites/99/webhooks'));
    const garbage = await asCaller(call().get('/v1.1/sites/abc/webhooks'));
    const createOutside = await create(valid, 99);
    for (const r of [outside, garbage, createOutside]) {
      assert.equal(r.status, 404);
      assert.deepEqual(
        { ...r.body, request_id: undefined },
        {
          type: r.body.type,
          title: 'Not found',
          status: 404,
          code: 'not_found',
          detail: 'No such site.',
          request_id: undefined,
        },
      );
    }
  });

  it('creates an endpoint and shows its secret once; reads never show it', async () => {
    const created = await create();
    assert.equal(created.status, 201);
    const shown = decoded(WebhookEndpointWithSecret, created.body);
    assert.match(shown.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.headers.location, `/v1.1/sites/${SITE}/webhooks/${created.body.id}`);
    assert.equal(created.headers['cache-control'], 'no-store');
    assert.equal(created.body.url, 'https://hooks.acme.example/esign');
    assert.deepEqual(created.body.event_types, ['request.sent', 'request.completed']);
    assert.equal(created.body.alert_email, 'ops@acme.example');
    assert.equal(created.body.enabled, true);
    assert.equal(created.body.previous_secret_expires_at, null);

    const read = await asCaller(call().get(`/v1.1/sites/${SITE}/webhooks/${created.body.id}`));
    assert.equal(read.status, 200);
    assert.equal(read.body.secret, undefined);
    assert.ok(!JSON.stringify(read.body).includes(shown.secret));
    const list = await asCaller(call().get(`/v1.1/sites/${SITE}/webhooks?per_page=100`));
    assert.equal(list.status, 200);
    assert.ok(decoded(WebhookEndpointList, list.body).data.some((e) => e.id === shown.id));
    assert.ok(!JSON.stringify(list.body).includes('whsec_'));
    // Another site the caller reaches does not see it.
    const other = await asCaller(call().get(`/v1.1/sites/8/webhooks/${created.body.id}`));
    assert.equal(other.status, 404);
    assert.equal(other.body.detail, 'No such webhook endpoint.');
  });

  it('refuses bad bodies with 422 naming the field, and writes nothing', async () => {
    const cases: Array<[object, string, RegExp]> = [
      [{ ...valid, url: 'not a url' }, 'url', /absolute URL/],
      [{ ...valid, url: 'https://user:pw@hooks.acme.example/x' }, 'url', /credentials/],
      [{ ...valid, event_types: [] }, 'event_types', /at least one/],
      [{ ...valid, event_types: ['request.sent', 'notification.delivered'] }, 'event_types[1]', /one of/],
      [{ ...valid, alert_email: 'nope' }, 'alert_email', /e-mail/],
      [{ ...valid, secret: 'mine' }, 'secret', /unknown field/],
      [{ url: valid.url, event_types: valid.event_types }, 'alert_email', /required/],
    ];
    const before = await asCaller(call().get('/v1.1/sites/8/webhooks'));
    for (const [body, path, message] of cases) {
      const r = await create(body, 8);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.code, 'invalid_body');
      const error = fieldErrors(r.body).find((e) => e.path === path);
      assert.ok(error !== undefined, `${path} in ${JSON.stringify(r.body.errors)}`);
      assert.match(error.message, message);
    }
    const afterList = await asCaller(call().get('/v1.1/sites/8/webhooks'));
    assert.equal(afterList.body.total_count, before.body.total_count);
  });

  it('refuses at registration a URL that is not https or that reaches a private address (the default)', async () => {
    const refused: Array<[string, RegExp]> = [
      ['http://hooks.acme.example/esign', /must use https/],
      ['https://10.0.0.5/hook', /private address/],
      ['https://127.0.0.1:8443/hook', /loopback/],
      ['https://[::ffff:127.0.0.1]/hook', /loopback/],
      ['https://[fd00::1]/hook', /unique local/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['https://intranet.acme.example/hook', /resolves to 10\.20\.30\.40, a private address/],
      ['https://localhost.acme.example/hook', /resolves to 127\.0\.0\.1, a loopback address/],
      ['https://unknown.acme.example/hook', /does not resolve/],
    ];
    for (const [url, message] of refused) {
      const r = await create({ ...valid, url }, 8);
      assert.equal(r.status, 422, url);
      assert.deepEqual(
        fieldErrors(r.body).map((e) => e.path),
        ['url'],
      );
      assert.match(fieldErrors(r.body)[0]!.message, message, url);
    }
    const ok = await create(valid, 8);
    const moved = await asCaller(
      call().patch(`/v1.1/sites/8/webhooks/${ok.body.id}`).send({ url: 'https://intranet.acme.example/h' }),
    );
    assert.equal(moved.status, 422);
    assert.match(fieldErrors(moved.body)[0]!.message, /private address/);
  });

  it('updates, rotates with an overlap, and deletes', async () => {
    const { body: created } = await create();
    const base = `/v1.1/sites/${SITE}/webhooks/${created.id}`;
    const empty = await asCaller(call().patch(base).send({}));
    assert.equal(empty.status, 422);
    const patched = await asCaller(
      call()
        .patch(base)
        .send({ event_types: ['request.signed'], enabled: false, description: 'CRM' }),
    );
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.event_types, ['request.signed']);
    assert.equal(patched.body.enabled, false);
    assert.equal(patched.body.disabled_reason, null);
    assert.equal(patched.body.description, 'CRM');

    const rotated = await asCaller(call().post(`${base}/rotate-secret`).send({ overlap_seconds: 3600 }));
    assert.equal(rotated.status, 200);
    const rotatedView = decoded(WebhookEndpointWithSecret, rotated.body);
    assert.match(rotatedView.secret, /^whsec_/);
    assert.notEqual(rotatedView.secret, created.secret);
    const expires = Date.parse(rotatedView.previous_secret_expires_at ?? '');
    assert.ok(Math.abs(expires - (Date.now() + 3_600_000)) < 10_000);
    const noBody = await asCaller(call().post(`${base}/rotate-secret`));
    assert.equal(noBody.status, 200);
    assert.ok(
      Math.abs(
        Date.parse(decoded(WebhookEndpointWithSecret, noBody.body).previous_secret_expires_at ?? '') -
          (Date.now() + 86_400_000),
      ) < 10_000,
    );
    const tooLong = await asCaller(
      call()
        .post(`${base}/rotate-secret`)
        .send({ overlap_seconds: 8 * 86_400 }),
    );
    assert.equal(tooLong.status, 422);
    assert.equal(tooLong.body.errors[0].path, 'overlap_seconds');

    assert.equal((await asCaller(call().delete(base))).status, 204);
    assert.equal((await asCaller(call().get(base))).status, 404);
    assert.equal((await asCaller(call().delete(base))).status, 404);
    assert.equal((await asCaller(call().get(`/v1.1/sites/${SITE}/webhooks/${randomUUID()}`))).status, 404);
    assert.equal((await asCaller(call().get(`/v1.1/sites/${SITE}/webhooks/not-a-uuid`))).status, 404);
  });

  it('tells the fan-out each Site with endpoints and every type they listen to, together (ADR 3490)', async () => {
    assert.equal(
      (await create({ ...valid, event_types: ['request.created', 'request.sent'] }, 8)).status,
      201,
    );
    assert.equal(
      (await create({ ...valid, event_types: ['request.signed', 'request.sent'] }, 8)).status,
      201,
    );
    const listed = (await asCaller(call().get(`/v1.1/sites/8/webhooks?per_page=100`))).body as {
      data: { event_types: string[] }[];
    };
    const union = [...new Set(listed.data.flatMap((e) => e.event_types))].sort();
    assert.ok(union.includes('request.created') && union.includes('request.signed'));
    const sites = await postgresWebhookEndpointStore(ctx.pool, testSealer).sitesWithEndpoints()();
    assert.ok(sites._tag === 'Right');
    assert.deepEqual(
      sites.right.find((site) => site.siteId === 8),
      { siteId: 8, eventTypes: union },
    );
  });
});
