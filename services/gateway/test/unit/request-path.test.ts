import assert from 'node:assert/strict';
import { pathSegments } from '../../src/domain/request-path.js';

describe('gateway: request paths', () => {
  it('splits a clean path into its segments, keeping a single trailing slash', () => {
    assert.deepEqual(pathSegments('/v1.1/requests/r_1-a~b'), ['v1.1', 'requests', 'r_1-a~b']);
    assert.deepEqual(pathSegments('/sign/'), ['sign', '']);
    assert.deepEqual(pathSegments('/v1.1/requests/a%20b'), ['v1.1', 'requests', 'a%20b']);
  });

  it('refuses every path an upstream could read differently from the gateway', () => {
    for (const path of [
      '',
      '/',
      'v1.1/requests',
      '//v1.1/requests',
      '/v1.1//requests',
      '/sign//',
      '/sign/../internal/introspect',
      '/sign/./x',
      '/sign/%2e%2e/internal/introspect',
      '/sign/%2E',
      '/v1.1/requests/a%2Fb/send',
      '/v1.1/requests/a%5cb',
      '/v1.1/requests/a%00',
      '/v1.1/requests/%zz',
      '/v1.1/requests/%c3%28',
      '/v1.1/requests/a\\b',
      '/v1.1/requests/a b',
    ]) {
      assert.equal(pathSegments(path), undefined, path);
    }
  });
});
