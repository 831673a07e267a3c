import assert from 'node:assert/strict';
import { startAuthDouble, type AuthDouble } from '../support/auth-double.js';
import { rawRequest } from '../support/client.js';
import { startGateway, INTROSPECTION_SECRET, type GatewayUnderTest } from '../support/gateway-under-test.js';
import { json, startHttpDouble, type HttpDouble } from '../support/http-double.js';

/** How large a body the gateway forwards: BODY_LIMIT_BYTES, and the signing form's own (ADR 3920). */
describe('gateway: body limits', () => {
  let auth: AuthDouble;
  let requests: HttpDouble;
  let gateway: GatewayUnderTest;
  let token: string;

  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
    requests = await startHttpDouble((recorded, res) => json(res, 200, { seen: recorded.url }));
    gateway = await startGateway(
      { authUrl: auth.url, requestsUrl: requests.url },
      { BODY_LIMIT_BYTES: '1000', SIGNING_BODY_LIMIT_BYTES: '3000' },
    );
    token = await auth.issue([{ id: 5, name: 'Five' }], { sub: 'user-5' });
  });
  after(async () => {
    await gateway.close();
    await requests.close();
    await auth.close();
  });
  beforeEach(() => {
    requests.received.length = 0;
    auth.received.length = 0;
  });

  it('refuses a body over the limit with 413, declared or streamed, without forwarding it', async () => {
    const declared = await rawRequest(gateway.url, {
      method: 'POST',
      path: '/v1.1/sites/5/requests',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': '5000',
      },
      chunks: ['x'.repeat(100)],
    });
    assert.equal(declared.status, 413);
    assert.equal(JSON.parse(declared.body).code, 'payload_too_large');
    const streamed = await rawRequest(gateway.url, {
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 5 }, () => 'y'.repeat(300)),
    });
    assert.equal(streamed.status, 413);
    assert.equal(requests.received.length, 0);
    assert.ok(auth.received.every((r) => r.body.length <= 1000));
  });

  it('ADR 3920: lets the signing form carry files up to its own limit, and no further', async () => {
    const form = (size: number) =>
      rawRequest(gateway.url, {
        method: 'POST',
        path: '/sign',
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'transfer-encoding': 'chunked' },
        chunks: Array.from({ length: size / 500 }, () => 'z'.repeat(500)),
      });
    const within = await form(2500);
    assert.notEqual(within.status, 413);
    const forwarded = requests.received.find((r) => r.url === '/sign');
    assert.equal(forwarded?.body.length, 2500, 'forwarded whole, past BODY_LIMIT_BYTES');
    requests.received.length = 0;
    const past = await form(3500);
    assert.equal(past.status, 413);
    assert.equal(JSON.parse(past.body).code, 'payload_too_large');
    assert.ok(requests.received.every((r) => r.body.length <= 3000));
  });
});
