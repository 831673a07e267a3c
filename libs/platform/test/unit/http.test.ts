import assert from 'node:assert/strict';
import request from 'supertest';
import { createHttpApp, finishApp, invalidBody, noOutages } from '../../src/index.js';
import { isDatabaseUnavailable } from '../../src/database.js';
import { testLogger } from '@esign/testing';

const build = (ready = true, isOutage: (error: unknown) => boolean = isDatabaseUnavailable) => {
  const { app, router } = createHttpApp({
    service: 'test',
    logger: testLogger(),
    isOutage,
    readiness: [
      { name: 'dep', check: () => (ready ? Promise.resolve() : Promise.reject(new Error('down'))) },
    ],
  });
  router.post('/echo', (ctx) => {
    ctx.body = { got: ctx.request.body };
  });
  router.post('/invalid', () => {
    throw invalidBody([{ path: 'signers[0].signer_id', message: 'required' }]);
  });
  router.get('/boom', () => {
    throw new Error('secret internals');
  });
  router.get('/db-down', () => {
    // What slonik throws when the pool cannot connect: pg's socket error as the cause.
    throw new Error('Failed to connect', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    });
  });
  router.get('/db-gone', () => {
    throw new Error('Connection terminated unexpectedly');
  });
  return finishApp(app, router).callback();
};

describe('platform: HTTP app', () => {
  it('answers /healthz and /readyz', async () => {
    await request(build()).get('/healthz').expect(200, { status: 'ok', service: 'test' });
    await request(build())
      .get('/readyz')
      .expect(200, { status: 'ok', checks: { dep: 'ok' } });
    await request(build(false))
      .get('/readyz')
      .expect(503, { status: 'unavailable', checks: { dep: 'down' } });
  });

  it('keeps a sane X-Request-Id and replaces an insane one', async () => {
    const kept = await request(build()).get('/healthz').set('X-Request-Id', 'abc-123');
    assert.equal(kept.headers['x-request-id'], 'abc-123');
    const replaced = await request(build()).get('/healthz').set('X-Request-Id', 'no spaces <allowed>');
    assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('renders problems as problem+json with field errors', async () => {
    const response = await request(build()).post('/invalid').send({}).expect(422);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    assert.equal(response.body.code, 'invalid_body');
    assert.deepEqual(response.body.errors, [{ path: 'signers[0].signer_id', message: 'required' }]);
  });

  it('answers malformed JSON 400, a non-JSON body 415 and an oversized body 413', async () => {
    const app = build();
    const malformed = await request(app).post('/echo').set('Content-Type', 'application/json').send('{"a":');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'malformed_json');
    const form = await request(app).post('/echo').set('Content-Type', 'text/plain').send('a=b');
    assert.equal(form.status, 415);
    const big = await request(app)
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(1024 * 1024 + 10) }));
    assert.equal(big.status, 413);
    assert.equal(big.body.code, 'payload_too_large');
  });

  it('hides unexpected errors behind a generic 500', async () => {
    const response = await request(build()).get('/boom').expect(500);
    assert.equal(response.body.code, 'internal_error');
    assert.ok(!JSON.stringify(response.body).includes('secret internals'));
  });

  it('answers 503 with Retry-After when the database cannot be reached: an outage, not a bug', async () => {
    for (const path of ['/db-down', '/db-gone']) {
      const response = await request(build()).get(path).expect(503);
      assert.equal(response.body.code, 'service_unavailable');
      assert.equal(response.headers['retry-after'], '1');
      // The cause's text, not a bare '5432', which a random request id may contain.
      for (const leak of ['127.0.0.1:5432', 'ECONNREFUSED', 'Connection terminated', 'Failed to connect'])
        assert.ok(
          !JSON.stringify(response.body).includes(leak),
          `${leak} in ${JSON.stringify(response.body)}`,
        );
    }
  });

  it('leaves what is an outage to the service: without a database, the same errors are bugs', async () => {
    for (const path of ['/db-down', '/db-gone']) {
      const response = await request(build(true, noOutages)).get(path).expect(500);
      assert.equal(response.body.code, 'internal_error');
    }
  });

  it('answers unknown routes with a 404 problem', async () => {
    const response = await request(build()).get('/nowhere').expect(404);
    assert.equal(response.body.code, 'not_found');
  });

  it('exposes Prometheus metrics by route and status', async () => {
    const app = build();
    await request(app).get('/healthz');
    const metrics = await request(app).get('/metrics').expect(200);
    assert.match(metrics.text, /http_requests_total\{[^}]*route="\/healthz"[^}]*status="200"/);
  });

  it('leaves the body of a raw-body path to its handler', async () => {
    const { app, router } = createHttpApp({
      service: 'test',
      logger: testLogger(),
      readiness: [],
      isOutage: noOutages,
      rawBodyPaths: ['/raw'],
    });
    router.post('/raw', async (ctx) => {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      ctx.body = { type: ctx.get('content-type'), raw: Buffer.concat(chunks).toString('utf8') };
    });
    router.post('/echo', (ctx) => {
      ctx.body = { got: ctx.request.body };
    });
    const callback = finishApp(app, router).callback();
    await request(callback)
      .post('/raw')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('grant_type=client_credentials')
      .expect(200, { type: 'application/x-www-form-urlencoded', raw: 'grant_type=client_credentials' });
    // Other paths keep the JSON-only rule.
    await request(callback)
      .post('/echo')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('a=b')
      .expect(415);
  });
});
