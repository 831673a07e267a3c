import assert from 'node:assert/strict';
import { redisKeyPrefix, startTcpProxy, type TcpProxy } from '@esign/testing';
import { startAuthDouble, type AuthDouble } from '../support/auth-double.js';
import { startGateway, INTROSPECTION_SECRET, type GatewayUnderTest } from '../support/gateway-under-test.js';
import { json, startHttpDouble, type HttpDouble } from '../support/http-double.js';

const SITE = { id: 5, name: 'Five' };

describe('gateway: rate limits across replicas (real Redis)', () => {
  let auth: AuthDouble;
  let requests: HttpDouble;
  let deadRedis: TcpProxy;
  const gateways: GatewayUnderTest[] = [];

  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
    requests = await startHttpDouble((recorded, res) => json(res, 200, { ok: true, url: recorded.url }));
    deadRedis = await startTcpProxy(1);
    deadRedis.cut();
  });
  after(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    await Promise.all([requests.close(), auth.close(), deadRedis.close()]);
  });

  // One clock for the fleet, standing still: headers are asserted exactly, whatever the
  // time between calls on a busy machine.
  const now = Date.now();
  const replica = async (env: Record<string, string>) => {
    const gateway = await startGateway(
      { authUrl: auth.url, requestsUrl: requests.url },
      // Exact counts are asserted: no call may turn into a 503 because the machine is busy.
      { INTROSPECTION_TIMEOUT_MS: '20000', JWKS_TIMEOUT_MS: '20000', ...env },
      { clock: { now: () => new Date(now) } },
    );
    gateways.push(gateway);
    return gateway;
  };
  const get = (gateway: GatewayUnderTest, path: string, token: string) =>
    fetch(new URL(path, gateway.url), { headers: { authorization: `Bearer ${token}` } });

  it('holds a token limit and a site limit for the fleet, not per replica', async () => {
    const env = {
      RATE_LIMIT_KEY_PREFIX: redisKeyPrefix('fleet'),
      RATE_LIMIT_TOKEN: '4/3600s',
      RATE_LIMIT_SITE: '6/3600s',
    };
    const fleet = [await replica(env), await replica(env)];
    const one = await auth.issue([SITE]);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await get(fleet[i % 2]!, '/v1.1/sites/5/requests', one)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
    // A second token on the same site has its own token bucket but shares the site's: 2 left.
    const two = await auth.issue([SITE]);
    const more: number[] = [];
    for (let i = 0; i < 4; i++) more.push((await get(fleet[i % 2]!, '/v1.1/sites/5/requests', two)).status);
    assert.deepEqual(more, [200, 200, 429, 429]);
    const refused = await get(fleet[0]!, '/v1.1/sites/5/requests', two);
    assert.equal(refused.headers.get('ratelimit'), '"token";r=2;t=1800, "site";r=0;t=3600');
  });

  it('fails open to 1/N of each limit per replica while Redis is down, and stays ready', async () => {
    const gateway = await replica({
      REDIS_URL: `redis://127.0.0.1:${deadRedis.port}`,
      RATE_LIMIT_TOKEN: '4/3600s',
      RATE_LIMIT_SITE: 'off',
      GATEWAY_REPLICAS: '2',
    });
    const token = await auth.issue([SITE]);
    const first = await get(gateway, '/v1.1/requests/r1', token);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-policy'), '"token";q=2;w=3600');
    assert.equal((await get(gateway, '/v1.1/requests/r1', token)).status, 200);
    const limited = await get(gateway, '/v1.1/requests/r1', token);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1800');
    const ready = await fetch(new URL('/readyz', gateway.opsUrl));
    assert.equal(ready.status, 200, 'Redis is not a readiness dependency: the fleet stays in service');
  });
});
