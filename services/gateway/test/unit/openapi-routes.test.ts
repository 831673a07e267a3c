// The published OpenAPI document and the gateway's route table name the same public API:
// a route the document lacks, or an operation the gateway does not route, fails here.
import assert from 'node:assert/strict';
import { OPERATIONS, type Operation } from '@esign/contracts/openapi';
import { GATEWAY_ROUTES, routeMatcher, type RouteSpec } from '../../src/domain/route-table.js';
import { pathSegments } from '../../src/domain/request-path.js';

/** A concrete path for an operation's template: a canonical site id, any one segment for the others. */
const concrete = (op: Operation): readonly string[] =>
  pathSegments(op.path.replace('{site_id}', '7').replace(/\{[a-z_]+\}/g, 'x1'))!;

const name = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

/** Documented operations the table does not route, or routes behind another credential. */
const unrouted = (operations: readonly Operation[], routes: readonly RouteSpec[]): string[] => {
  const match = routeMatcher(routes);
  const problems: string[] = [];
  for (const op of operations) {
    const matched = match(op.method.toUpperCase(), concrete(op));
    if (matched._tag !== 'Matched') {
      problems.push(`${name(op)}: the gateway answers ${matched._tag}`);
      continue;
    }
    if ((matched.route.access === 'bearer') !== (op.auth === 'access_token'))
      problems.push(`${name(op)}: documented as ${op.auth}, routed as ${matched.route.access}`);
    if (op.path.includes('{site_id}') !== (matched.site !== undefined))
      problems.push(`${name(op)}: the site in the path and the route's site scope disagree`);
  }
  return problems;
};

/** Routes no operation is documented for, and methods of exact routes the document lacks. */
const undocumented = (operations: readonly Operation[], routes: readonly RouteSpec[]): string[] => {
  const missing: string[] = [];
  for (const route of routes) {
    const only = routeMatcher([route]);
    const documented = operations.filter(
      (op) => only(op.method.toUpperCase(), concrete(op))._tag === 'Matched',
    );
    if (documented.length === 0) missing.push(`${route.path}: no operation`);
    if (route.methods === 'any' || route.path.endsWith('*')) continue;
    for (const method of route.methods)
      if (!documented.some((op) => op.method.toUpperCase() === method))
        missing.push(`${method} ${route.path}: not documented`);
  }
  return missing;
};

describe('gateway: the OpenAPI document covers the route table, and only it', () => {
  it('routes every documented operation, behind the credential the document states', () => {
    assert.deepEqual(unrouted(OPERATIONS, GATEWAY_ROUTES), []);
  });

  it('documents every route, and every method of an exact route', () => {
    assert.deepEqual(undocumented(OPERATIONS, GATEWAY_ROUTES), []);
  });

  it('fails when the table gains a route or a method the document lacks', () => {
    const archive: RouteSpec = {
      path: '/v1.1/requests/:id/archive',
      methods: ['POST'],
      upstream: 'requests',
      access: 'bearer',
      cost: 'standard',
    };
    assert.deepEqual(undocumented(OPERATIONS, [...GATEWAY_ROUTES, archive]), [
      '/v1.1/requests/:id/archive: no operation',
      'POST /v1.1/requests/:id/archive: not documented',
    ]);
    const withDelete = GATEWAY_ROUTES.map((r) =>
      r.path === '/v1.1/requests/:id' ? { ...r, methods: ['GET', 'DELETE'] as const } : r,
    );
    assert.deepEqual(undocumented(OPERATIONS, withDelete), ['DELETE /v1.1/requests/:id: not documented']);
  });

  it('fails when the document names an operation the gateway does not route', () => {
    const ghost = { ...OPERATIONS[0]!, method: 'post', path: '/v1.1/requests/{request_id}/archive' } as const;
    assert.deepEqual(unrouted([ghost], GATEWAY_ROUTES), [
      'POST /v1.1/requests/{request_id}/archive: the gateway answers NoRoute',
    ]);
    const withoutSends = GATEWAY_ROUTES.filter((r) => r.path !== '/v1.1/requests/:id/send');
    assert.equal(unrouted(OPERATIONS, withoutSends).length, 1);
  });

  it('gives every operation a unique id', () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    assert.equal(new Set(ids).size, ids.length);
  });
});
