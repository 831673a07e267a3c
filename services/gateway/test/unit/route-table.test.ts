import assert from 'node:assert/strict';
import { GATEWAY_ROUTES, routeMatcher, type RouteMatch } from '../../src/domain/route-table.js';
import { pathSegments } from '../../src/domain/request-path.js';

const match = routeMatcher(GATEWAY_ROUTES);
const route = (method: string, path: string): RouteMatch => match(method, pathSegments(path)!);
const target = (method: string, path: string) => {
  const m = route(method, path);
  return m._tag === 'Matched' ? `${m.route.upstream}/${m.route.access}/${m.route.cost}` : m._tag;
};

describe('gateway: the route table', () => {
  it('sends the API to requests behind a bearer token, send and remind as costly', () => {
    assert.equal(target('GET', '/v1.1/sites/7/requests'), 'requests/bearer/standard');
    assert.equal(target('POST', '/v1.1/sites/7/requests'), 'requests/bearer/standard');
    assert.equal(target('POST', '/v1.1/sites/7/contracts'), 'requests/bearer/standard');
    assert.equal(target('GET', '/v1.1/requests/r1'), 'requests/bearer/standard');
    assert.equal(target('POST', '/v1.1/requests/r1/send'), 'requests/bearer/costly');
    assert.equal(target('POST', '/v1.1/requests/r1/remind'), 'requests/bearer/costly');
    assert.equal(target('POST', '/v1.1/requests/r1/cancel'), 'requests/bearer/standard');
    assert.equal(target('POST', '/v1.1/sites/7/bulk_sends'), 'requests/bearer/costly');
    assert.equal(target('POST', '/v1.1/bulk_sends/b1/cancel'), 'requests/bearer/standard');
    assert.equal(target('POST', '/v1.1/bulk_sends/b1/cancel_requests'), 'requests/bearer/costly');
    assert.equal(
      target('POST', '/v1.1/requests/r1/signers/jo%40example.com/replace'),
      'requests/bearer/costly',
    );
    assert.equal(target('GET', '/v1.1/requests/r1/download'), 'requests/bearer/standard');
    assert.equal(target('GET', '/v1.1/requests/r1/events'), 'requests/bearer/standard');
    assert.equal(target('GET', '/v1.1/sites/7/events'), 'requests/bearer/standard');
    assert.equal(target('GET', '/v1.1/sites/7/signers'), 'requests/bearer/standard');
    assert.equal(target('PUT', '/v1.1/sites/7/signers/jo%40example.com'), 'requests/bearer/standard');
    assert.equal(target('DELETE', '/v1.1/sites/7/signers/jo%40example.com'), 'requests/bearer/standard');
    assert.equal(target('POST', '/v1.1/contracts/3/publish'), 'requests/bearer/standard');
    assert.equal(target('DELETE', '/v1.1/sites/7/webhooks/9'), 'notifier/bearer/standard');
  });

  it('passes signer pages to requests and token routes to auth without authenticating', () => {
    assert.equal(target('GET', '/sign'), 'requests/public/standard');
    assert.equal(target('POST', '/sign/complete'), 'requests/public/standard');
    assert.equal(target('POST', '/oauth/token'), 'auth/public/standard');
    assert.equal(target('GET', '/.well-known/jwks.json'), 'auth/public/standard');
    assert.equal(target('POST', '/v1.1/sessions'), 'auth/public/standard');
    assert.equal(target('DELETE', '/v1.1/tokens/t1'), 'auth/public/standard');
    assert.equal(target('GET', '/v1.1/apps/a1/tokens'), 'auth/public/standard');
  });

  it('reads the site from the path, as an id only when canonical', () => {
    const read = (path: string) => {
      const m = route('GET', path);
      return m._tag === 'Matched' ? m.site : m._tag;
    };
    assert.deepEqual(read('/v1.1/sites/42/requests'), { raw: '42', id: 42 });
    assert.deepEqual(read('/v1.1/sites/042/requests'), { raw: '042', id: undefined });
    assert.deepEqual(read('/v1.1/sites/abc/requests'), { raw: 'abc', id: undefined });
    assert.deepEqual(read('/v1.1/sites/1e3/requests'), { raw: '1e3', id: undefined });
    assert.equal(read('/v1.1/requests/r1'), undefined);
  });

  it('never routes internal paths, near misses or prefixes of prefixes', () => {
    for (const path of [
      '/internal/introspect',
      '/v1.1/internal/introspect',
      '/signer',
      '/v1.1/sessionsX',
      '/v1.1/requests',
      '/v1.1/requests/r1/send/',
      '/v1.1/requests/r1/delete',
      '/v1.1/sites/7',
      '/v1.1/sites/7/requests/extra',
      '/healthz/x',
      '/version/x',
      '/v/x',
    ]) {
      assert.equal(target('GET', path), 'NoRoute', path);
    }
  });

  it('tells a version it does not serve from a path it does not know', () => {
    for (const [path, version] of [
      ['/v1/sites/7/requests', 'v1'],
      ['/v2/requests/r1', 'v2'],
      ['/v1.0/sessions', 'v1.0'],
      ['/V1.1/requests/r1', 'V1.1'],
      ['/v1.1.0', 'v1.1.0'],
    ])
      assert.deepEqual(route('GET', path!), { _tag: 'UnsupportedVersion', version, served: ['v1.1'] }, path);
    assert.equal(target('GET', '/v1.1/nothing/here'), 'NoRoute');
  });

  it('answers a wrong method on a known path with the methods it allows', () => {
    assert.deepEqual(route('DELETE', '/v1.1/requests/r1'), {
      _tag: 'MethodNotAllowed',
      allow: ['GET', 'PATCH', 'HEAD', 'OPTIONS'],
    });
    assert.deepEqual(route('GET', '/v1.1/requests/r1/send'), {
      _tag: 'MethodNotAllowed',
      allow: ['POST', 'OPTIONS'],
    });
    assert.deepEqual(route('PUT', '/v1.1/sites/1/requests'), {
      _tag: 'MethodNotAllowed',
      allow: ['GET', 'POST', 'HEAD', 'OPTIONS'],
    });
    assert.equal(target('HEAD', '/v1.1/requests/r1'), 'requests/bearer/standard');
  });

  it('is extended by adding a line', () => {
    const extended = routeMatcher([
      ...GATEWAY_ROUTES,
      {
        path: '/v1.1/sites/:site/reports',
        methods: ['GET'],
        upstream: 'requests',
        access: 'bearer',
        cost: 'standard',
      },
    ]);
    assert.equal(extended('GET', ['v1.1', 'sites', '5', 'reports'])._tag, 'Matched');
  });
});
