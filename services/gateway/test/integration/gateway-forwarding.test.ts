import assert from 'node:assert/strict';
import { PRINCIPAL_AUDIENCES, PRINCIPAL_HEADER } from '@esign/contracts';
import { verifyPrincipal } from '@esign/platform';
import { testGatewayKeys } from '@esign/testing';
import * as E from 'fp-ts/lib/Either.js';
import { startAuthDouble, type AuthDouble } from '../support/auth-double.js';
import { rawRequest } from '../support/client.js';
import { startGateway, INTROSPECTION_SECRET, type GatewayUnderTest } from '../support/gateway-under-test.js';
import { json, startHttpDouble, type HttpDouble } from '../support/http-double.js';

/** Calls are made with fetch unless the wire itself matters. */
const call = (base: string, path: string, init: RequestInit = {}) => fetch(new URL(path, base), init);

const WEB_SECRET = 'the-web-applications-secret-for-this-test-0123';

describe('gateway: forwarding', () => {
  let auth: AuthDouble;
  let requests: HttpDouble;
  let gateway: GatewayUnderTest;
  let token: string;

  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
    requests = await startHttpDouble((recorded, res) => {
      if (recorded.url.startsWith('/v1.1/requests/r1/download')) {
        res.writeHead(200, { 'content-type': 'application/pdf', 'x-request-id': 'upstream-id' });
        res.write(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff]));
        return void res.end(Buffer.alloc(64 * 1024, 7));
      }
      json(res, recorded.method === 'POST' ? 201 : 200, { seen: recorded.url }, { 'x-upstream': 'requests' });
    });
    gateway = await startGateway(
      { authUrl: auth.url, requestsUrl: requests.url },
      { BODY_LIMIT_BYTES: '1000' },
      { webCallerSecret: WEB_SECRET },
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

  it('ADR 3010: takes the browser the web application names as the peer, only with its secret, and forwards neither header', async () => {
    const forwardedFor = async (headers: Record<string, string>) => {
      requests.received.length = 0;
      const response = await call(gateway.url, '/v1.1/sites/5/requests', {
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
      assert.equal(response.status, 200);
      const [received] = requests.received;
      assert.ok(received);
      assert.equal(received.headers['x-esign-web-client'], undefined);
      assert.equal(received.headers['x-esign-web-peer'], undefined);
      return received.headers['x-forwarded-for'];
    };
    const named = { 'x-esign-web-peer': '203.0.113.7' };
    assert.equal(await forwardedFor({ 'x-esign-web-client': WEB_SECRET, ...named }), '203.0.113.7');
    assert.equal(
      await forwardedFor({ 'x-esign-web-client': `${WEB_SECRET.slice(1)}x`, ...named }),
      '127.0.0.1',
    );
    assert.equal(await forwardedFor({ 'x-esign-web-client': 'short', ...named }), '127.0.0.1');
    assert.equal(await forwardedFor(named), '127.0.0.1');
    assert.equal(
      await forwardedFor({ 'x-esign-web-client': WEB_SECRET, 'x-esign-web-peer': '6.6.6.6, 1.2.3.4' }),
      '127.0.0.1',
      'only an address is taken',
    );
  });

  it('forwards an authenticated call with a signed principal, never the client’s own credentials', async () => {
    const response = await call(gateway.url, '/v1.1/sites/5/requests?page=2&per_page=10', {
      headers: {
        authorization: `Bearer ${token}`,
        [PRINCIPAL_HEADER]: 'forged-principal',
        'x-forwarded-for': '6.6.6.6',
        'x-request-id': 'client-req-42',
        'x-custom': 'kept',
      },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-upstream'), 'requests');
    assert.equal(response.headers.get('x-request-id'), 'client-req-42');
    assert.deepEqual(await response.json(), { seen: '/v1.1/sites/5/requests?page=2&per_page=10' });

    const [received] = requests.received;
    assert.ok(received);
    assert.equal(received.headers.authorization, undefined);
    assert.equal(received.headers['x-custom'], 'kept');
    assert.equal(received.headers['x-request-id'], 'client-req-42');
    assert.equal(received.headers['x-forwarded-for'], '127.0.0.1');
    assert.equal(received.headers['x-forwarded-proto'], 'http');
    assert.equal(received.headers['x-forwarded-host'], new URL(gateway.url).host);
    const principal = await verifyPrincipal(
      { publicKey: testGatewayKeys.publicKey, audience: PRINCIPAL_AUDIENCES.requests },
      String(received.headers[PRINCIPAL_HEADER]),
    );
    assert.ok(E.isRight(principal));
    assert.equal(principal.right.sub, 'user-5');
    assert.deepEqual(principal.right.sites, [{ id: 5, name: 'Five' }]);
  });

  it('M5: signs each principal for the one service it goes to, with its own key, never the introspection credential', async () => {
    const headers = { authorization: `Bearer ${token}` };
    assert.equal((await call(gateway.url, '/v1.1/sites/5/requests', { headers })).status, 200);
    assert.equal((await call(gateway.url, '/v1.1/sites/5/webhooks', { headers })).status, 200);
    const [toRequests, toNotifier] = requests.received.map((r) => String(r.headers[PRINCIPAL_HEADER]));
    const as = (audience: (typeof PRINCIPAL_AUDIENCES)[keyof typeof PRINCIPAL_AUDIENCES], token: string) =>
      verifyPrincipal({ publicKey: testGatewayKeys.publicKey, audience }, token);
    assert.ok(E.isRight(await as(PRINCIPAL_AUDIENCES.requests, toRequests!)));
    assert.ok(E.isRight(await as(PRINCIPAL_AUDIENCES.notifier, toNotifier!)));
    // Minted for one service, refused by the other.
    assert.ok(E.isLeft(await as(PRINCIPAL_AUDIENCES.notifier, toRequests!)));
    assert.ok(E.isLeft(await as(PRINCIPAL_AUDIENCES.requests, toNotifier!)));
    // The principal is no introspection credential, and carries nothing of it.
    assert.ok(!toRequests!.includes(INTROSPECTION_SECRET));
    const [header] = toRequests!.split('.');
    assert.equal(JSON.parse(Buffer.from(header!, 'base64url').toString()).alg, 'EdDSA');
  });

  it('makes a request id when the client’s is missing or not sane, and returns it', async () => {
    const response = await call(gateway.url, '/v1.1/requests/r1', {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'spaces are <not> sane' },
    });
    const id = response.headers.get('x-request-id');
    assert.match(String(id), /^[0-9a-f-]{36}$/);
    assert.equal(requests.received[0]!.headers['x-request-id'], id);
  });

  it('streams binary bodies both ways without touching them', async () => {
    const download = await call(gateway.url, '/v1.1/requests/r1/download', {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    assert.notEqual(download.headers.get('x-request-id'), 'upstream-id');
    const bytes = Buffer.from(await download.arrayBuffer());
    assert.equal(bytes.length, 6 + 64 * 1024);
    assert.deepEqual([...bytes.subarray(0, 6)], [0x25, 0x50, 0x44, 0x46, 0x00, 0xff]);

    const chunked = await rawRequest(gateway.url, {
      method: 'POST',
      path: '/v1.1/sites/5/requests',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      },
      chunks: ['{"contracts":', '[1],"signers":', '[{"signer_id":"a@b.example"}]}'],
    });
    assert.equal(chunked.status, 201);
    assert.equal(
      requests.received[1]!.body.toString(),
      '{"contracts":[1],"signers":[{"signer_id":"a@b.example"}]}',
    );
  });

  it('passes token routes to auth with the client’s Authorization, and no principal', async () => {
    const response = await call(gateway.url, '/oauth/token', {
      method: 'POST',
      headers: {
        authorization: 'Basic Y2xpZW50OnNlY3JldA==',
        'content-type': 'application/x-www-form-urlencoded',
        [PRINCIPAL_HEADER]: 'forged',
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 200);
    const received = auth.received.find((r) => r.url === '/oauth/token')!;
    assert.equal(received.headers.authorization, 'Basic Y2xpZW50OnNlY3JldA==');
    assert.equal(received.headers[PRINCIPAL_HEADER], undefined);
    assert.equal(received.body.toString(), 'grant_type=client_credentials');
    for (const path of ['/.well-known/jwks.json', '/v1.1/tokens', '/v1.1/apps/a1', '/v1.1/sessions']) {
      assert.equal((await call(gateway.url, path)).status, 200, path);
    }
  });

  it('passes signer pages to requests unauthenticated, without credentials of any kind', async () => {
    const response = await call(gateway.url, '/sign?r=r1&s=s1&signature=abc', {
      headers: { authorization: `Bearer ${token}`, [PRINCIPAL_HEADER]: 'forged' },
    });
    assert.equal(response.status, 200);
    const [received] = requests.received;
    assert.equal(received!.url, '/sign?r=r1&s=s1&signature=abc');
    assert.equal(received!.headers.authorization, undefined);
    assert.equal(received!.headers[PRINCIPAL_HEADER], undefined);
  });

  it('answers unknown, internal and crafted paths itself with problems, forwarding nothing', async () => {
    const expectProblem = async (path: string, status: number, code: string, method = 'GET') => {
      const response = await rawRequest(gateway.url, {
        method,
        path,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, status, path);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.equal(JSON.parse(response.body).code, code, path);
      return response;
    };
    await expectProblem('/internal/introspect', 404, 'not_found', 'POST');
    await expectProblem('/nope', 404, 'not_found');
    await expectProblem('/v1.1/requests', 404, 'not_found');
    const oldVersion = await expectProblem('/v1/sites/5/requests', 404, 'unsupported_version', 'POST');
    assert.match(
      (JSON.parse(oldVersion.body) as { detail: string }).detail,
      /no version v1; it serves v1\.1/,
    );
    await expectProblem('/sign/../internal/introspect', 400, 'invalid_path', 'POST');
    await expectProblem('/sign/%2e%2e/internal/introspect', 400, 'invalid_path', 'POST');
    await expectProblem('/v1.1/requests/a%2Fb/send', 400, 'invalid_path', 'POST');
    const wrongMethod = await expectProblem('/v1.1/requests/r1/send', 405, 'method_not_allowed');
    assert.equal(wrongMethod.headers.allow, 'POST, OPTIONS');
    const options = await rawRequest(gateway.url, { method: 'OPTIONS', path: '/v1.1/sites/5/requests' });
    assert.equal(options.status, 204);
    assert.equal(options.headers.allow, 'GET, POST, HEAD, OPTIONS');
    assert.equal(requests.received.length, 0);
    assert.equal(auth.received.filter((r) => r.url.startsWith('/internal')).length, 0);
  });

  it('L12: serves /metrics and /readyz on its operations port only; the public port does not have them', async () => {
    for (const path of ['/metrics', '/readyz']) {
      const hidden = await call(gateway.url, path);
      assert.equal(hidden.status, 404, path);
      assert.equal(((await hidden.json()) as { code: string }).code, 'not_found');
    }
    const metrics = await call(gateway.opsUrl, '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(await metrics.text(), /http_requests_total/);
    assert.equal(
      (await call(gateway.opsUrl, '/readyz')).headers.get('content-type'),
      'application/json; charset=utf-8',
    );
    // Liveness stays on both: the kubelet's startup and liveness probes use the main port.
    assert.equal((await call(gateway.url, '/healthz')).status, 200);
    assert.equal((await call(gateway.opsUrl, '/healthz')).status, 200);
    assert.equal((await call(gateway.opsUrl, '/v1.1/sites/5/requests')).status, 404);
  });

  it('labels metrics by route template, never by ids', async () => {
    await call(gateway.url, '/v1.1/requests/some-unique-id-123', {
      headers: { authorization: `Bearer ${token}` },
    });
    const metrics = await (await call(gateway.opsUrl, '/metrics')).text();
    assert.match(metrics, /http_requests_total\{[^}]*route="\/v1\.1\/requests\/:id"[^}]*status="200"/);
    assert.doesNotMatch(metrics, /some-unique-id-123/);
  });
});
