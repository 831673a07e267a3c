import assert from 'node:assert/strict';
import { startAuthDouble, type AuthDouble } from '../support/auth-double.js';
import { startGateway, INTROSPECTION_SECRET, type GatewayUnderTest } from '../support/gateway-under-test.js';
import { closedPort, json, startHttpDouble, type HttpDouble } from '../support/http-double.js';

/** Calls are made with fetch unless the wire itself matters. */
const call = (base: string, path: string, init: RequestInit = {}) => fetch(new URL(path, base), init);

describe('gateway: an upstream that is down or slow', () => {
  let auth: AuthDouble;
  let slow: HttpDouble;
  const gateways: GatewayUnderTest[] = [];
  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
    // Never answers: a hung upstream.
    slow = await startHttpDouble(() => undefined);
  });
  after(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    await slow.close();
    await auth.close();
  });
  const gatewayFor = async (requestsUrl: string) => {
    const gateway = await startGateway({ authUrl: auth.url, requestsUrl }, { UPSTREAM_TIMEOUT_MS: '300' });
    gateways.push(gateway);
    return gateway;
  };

  it('answers 503 with Retry-After when the service refuses connections', async () => {
    const gateway = await gatewayFor(await closedPort());
    const response = await call(gateway.url, '/v1.1/sites/5/requests', {
      headers: { authorization: `Bearer ${await auth.issue([{ id: 5, name: 'Five' }])}` },
    });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '2');
    assert.equal(((await response.json()) as { code: string }).code, 'upstream_unavailable');
    const ready = await call(gateway.opsUrl, '/readyz');
    assert.equal(ready.status, 503);
  });

  it('cuts the answer short when the service dies mid-body, and goes on serving', async () => {
    let calls = 0;
    const dying = await startHttpDouble((_recorded, res) => {
      calls += 1;
      if (calls > 1) return json(res, 200, { ok: true });
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '1000' });
      res.write('%PDF-1.7 partial');
      setTimeout(() => res.destroy(), 20);
    });
    try {
      const gateway = await gatewayFor(dying.url);
      const truncated = await call(gateway.url, '/sign/document');
      assert.equal(truncated.status, 200);
      await assert.rejects(truncated.arrayBuffer());
      assert.equal((await call(gateway.url, '/sign/document')).status, 200);
    } finally {
      await dying.close();
    }
  });

  it('answers 503 when the service does not answer in time, instead of hanging', async () => {
    const gateway = await gatewayFor(slow.url);
    for (const init of [{}, { method: 'POST', body: 'field=value&other=' + 'x'.repeat(5000) }]) {
      const response = await call(gateway.url, '/sign?r=1', init);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '2');
      assert.equal(((await response.json()) as { code: string }).code, 'upstream_timeout');
    }
  });
});
