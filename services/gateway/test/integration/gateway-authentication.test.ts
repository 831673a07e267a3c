import assert from 'node:assert/strict';
import { startAuthDouble, jtiOf, type AuthDouble } from '../support/auth-double.js';
import { startGateway, INTROSPECTION_SECRET, type GatewayUnderTest } from '../support/gateway-under-test.js';
import { json, startHttpDouble, type HttpDouble } from '../support/http-double.js';

const SITE = { id: 5, name: 'Five' };

describe('gateway: authentication, scope and rate limits', () => {
  let auth: AuthDouble;
  let requests: HttpDouble;
  const gateways: GatewayUnderTest[] = [];
  /** The gateways' clock, moved by hand: caches and buckets are tested without waiting. */
  let now = 1_000_000;

  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
    requests = await startHttpDouble((recorded, res) => json(res, 200, { ok: true, url: recorded.url }));
  });
  after(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    await requests.close();
    await auth.close();
  });
  afterEach(() => {
    auth.state.mode = 'up';
    auth.state.jwksUp = true;
    auth.state.introspectionDelayMs = 0;
  });

  const gatewayWith = async (env: Record<string, string> = {}) => {
    const gateway = await startGateway({ authUrl: auth.url, requestsUrl: requests.url }, env, {
      clock: { now: () => new Date(now) },
    });
    gateways.push(gateway);
    return gateway;
  };
  const get = (gateway: GatewayUnderTest, path: string, token?: string, method = 'GET') =>
    fetch(new URL(path, gateway.url), {
      method,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
  const introspectionsOf = (token: string) => auth.introspections.filter((id) => id === jtiOf(token)).length;

  it('asks auth once per token per cache period and shares a lookup in flight', async () => {
    const gateway = await gatewayWith({ INTROSPECTION_CACHE_SECONDS: '5' });
    const token = await auth.issue([SITE]);
    auth.state.introspectionDelayMs = 50;
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () => get(gateway, '/v1.1/requests/r1', token)),
    );
    assert.deepEqual(
      statuses.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal(introspectionsOf(token), 1);
    now += 4_999;
    assert.equal((await get(gateway, '/v1.1/requests/r1', token)).status, 200);
    assert.equal(introspectionsOf(token), 1);
    now += 1;
    assert.equal((await get(gateway, '/v1.1/requests/r1', token)).status, 200);
    assert.equal(introspectionsOf(token), 2);
  });

  it('applies a revocation and a removed membership once the cached answer runs out', async () => {
    const gateway = await gatewayWith({ INTROSPECTION_CACHE_SECONDS: '5' });
    const token = await auth.issue([SITE, { id: 6, name: 'Six' }], { sub: 'user-r' });
    assert.equal((await get(gateway, '/v1.1/sites/6/requests', token)).status, 200);
    auth.answer(jtiOf(token), { active: true, sub: 'user-r', token_id: jtiOf(token), sites: [SITE] });
    now += 5_000;
    assert.equal((await get(gateway, '/v1.1/sites/6/requests', token)).status, 404);
    assert.equal((await get(gateway, '/v1.1/sites/5/requests', token)).status, 200);
    auth.revoke(jtiOf(token));
    assert.equal((await get(gateway, '/v1.1/sites/5/requests', token)).status, 200);
    now += 5_000;
    const revoked = await get(gateway, '/v1.1/sites/5/requests', token);
    assert.equal(revoked.status, 401);
    assert.equal(((await revoked.json()) as { code: string }).code, 'token_inactive');
    assert.match(
      String(revoked.headers.get('www-authenticate')),
      /^Bearer realm="esign", error="invalid_token"/,
    );
  });

  it('answers 503 and forwards nothing while auth cannot vouch for a token', async () => {
    const gateway = await gatewayWith({ INTROSPECTION_TIMEOUT_MS: '200' });
    const token = await auth.issue([SITE]);
    const before = requests.received.length;
    for (const mode of ['error', 'garbage', 'hang'] as const) {
      auth.state.mode = mode;
      const response = await get(gateway, '/v1.1/sites/5/requests', token);
      assert.equal(response.status, 503, mode);
      assert.equal(response.headers.get('retry-after'), '2');
      assert.equal(((await response.json()) as { code: string }).code, 'auth_unavailable');
    }
    auth.state.mode = 'up';
    auth.state.jwksUp = false;
    const fresh = await gatewayWith();
    assert.equal((await get(fresh, '/v1.1/sites/5/requests', token)).status, 503);
    assert.equal(requests.received.length, before);
  });

  it('answers a site the token does not reach exactly as a site that does not exist', async () => {
    const gateway = await gatewayWith();
    const other = await auth.issue([{ id: 77, name: 'Seventy-seven' }]);
    const token = await auth.issue([SITE]);
    const shape = async (path: string, t: string) => {
      const response = await get(gateway, path, t);
      const headers = [...response.headers].filter(([k]) => !['date', 'x-request-id'].includes(k));
      const { request_id: _id, ...body } = (await response.json()) as Record<string, unknown>;
      return { status: response.status, headers, body };
    };
    const anothers = await shape('/v1.1/sites/77/requests', token);
    assert.equal(anothers.status, 404);
    assert.deepEqual(await shape('/v1.1/sites/999999/requests', token), anothers);
    assert.deepEqual(await shape('/v1.1/sites/not-a-site/contracts', token), anothers);
    assert.equal((await get(gateway, '/v1.1/sites/77/requests', other)).status, 200);
  });

  it('tells missing, malformed, expired and forged tokens apart in codes, all 401', async () => {
    const gateway = await gatewayWith();
    const codeOf = async (authorization?: string) => {
      const response = await fetch(new URL('/v1.1/requests/r1', gateway.url), {
        headers: authorization === undefined ? {} : { authorization },
      });
      assert.equal(response.status, 401);
      assert.ok(response.headers.get('www-authenticate')?.startsWith('Bearer realm="esign"'));
      return ((await response.json()) as { code: string }).code;
    };
    assert.equal(await codeOf(), 'missing_token');
    assert.equal(await codeOf('Bearer nope'), 'malformed_token');
    assert.equal(await codeOf(`Bearer ${await auth.issue([SITE], { expiresIn: -30 })}`), 'token_expired');
    assert.equal(await codeOf(`Bearer ${await auth.mint({ issuer: 'elsewhere' })}`), 'invalid_token');
  });

  it('limits per token with 429, Retry-After and RateLimit headers, and send/remind more strictly', async () => {
    const gateway = await gatewayWith({
      RATE_LIMIT_TOKEN: '3/60s',
      RATE_LIMIT_SITE: 'off',
      RATE_LIMIT_COSTLY: '1/60s',
    });
    const token = await auth.issue([SITE]);
    const first = await get(gateway, '/v1.1/requests/r1/send', token, 'POST');
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-policy'), '"token";q=3;w=60, "costly";q=1;w=60');
    assert.equal(first.headers.get('ratelimit'), '"token";r=2;t=20, "costly";r=0;t=60');
    const secondSend = await get(gateway, '/v1.1/requests/r1/remind', token, 'POST');
    assert.equal(secondSend.status, 429);
    assert.equal(secondSend.headers.get('retry-after'), '60');
    assert.match(String(secondSend.headers.get('content-type')), /^application\/problem\+json/);
    assert.equal(((await secondSend.json()) as { code: string }).code, 'rate_limited');
    assert.equal((await get(gateway, '/v1.1/requests/r1', token)).status, 200);
    assert.equal((await get(gateway, '/v1.1/requests/r1', token)).status, 200);
    const limited = await get(gateway, '/v1.1/requests/r1', token);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '20');
    assert.equal(limited.headers.get('ratelimit'), '"token";r=0;t=60');
    // Another token has its own bucket; time gives calls back.
    assert.equal((await get(gateway, '/v1.1/requests/r1', await auth.issue([SITE]))).status, 200);
    now += 20_000;
    assert.equal((await get(gateway, '/v1.1/requests/r1', token)).status, 200);
  });

  it('limits per site across the tokens that reach it', async () => {
    const gateway = await gatewayWith({ RATE_LIMIT_TOKEN: 'off', RATE_LIMIT_SITE: '2/60s' });
    const one = await auth.issue([SITE]);
    const two = await auth.issue([SITE]);
    assert.equal((await get(gateway, '/v1.1/sites/5/requests', one)).status, 200);
    assert.equal((await get(gateway, '/v1.1/sites/5/requests', two)).status, 200);
    const limited = await get(gateway, '/v1.1/sites/5/requests', two);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('ratelimit-policy'), '"site";q=2;w=60');
    // Calls that name no site are not charged to it.
    assert.equal((await get(gateway, '/v1.1/requests/r1', two)).status, 200);
  });
});
