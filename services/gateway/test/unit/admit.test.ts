import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { TokenIntrospection } from '@esign/contracts';
import { admit, type RatePolicies } from '../../src/application/admit.js';
import { authenticate } from '../../src/application/authenticate.js';
import { resolvePrincipal } from '../../src/application/resolve-principal.js';
import type { AccessTokenClaims } from '../../src/domain/access-token.js';
import { GATEWAY_ROUTES, siteIdOf, type RouteSpec } from '../../src/domain/route-table.js';
import type { AccessTokenVerifier, VerifyFailure } from '../../src/ports/access-token-verifier.js';
import { AuthUnavailable } from '../../src/ports/auth-unavailable.js';
import type { TokenIntrospector } from '../../src/ports/token-introspector.js';
import { memoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';

// In-memory fakes of the ports: tokens are 'a.b.<name>', their verdicts set per test.
const TOKEN = 'h.p.alice';
const claims: AccessTokenClaims = {
  iss: 'esign-auth',
  aud: 'esign-api',
  sub: 'alice',
  jti: 'tok-1',
  client_id: 'app',
  iat: 0,
  exp: 10,
};

/** A verdict, or 'down' when the key set cannot be fetched. */
type Verdict = E.Either<VerifyFailure, AccessTokenClaims> | 'down';

const outage = (what: string) => () => Promise.reject(new AuthUnavailable(what));

const fakes = (verdict: Verdict, answer: TokenIntrospection | 'down') => {
  const introspected: string[] = [];
  const verify: AccessTokenVerifier = () => (verdict === 'down' ? outage('JWKS') : TE.fromEither(verdict));
  const introspect: TokenIntrospector = (tokenId) => {
    introspected.push(tokenId);
    return answer === 'down' ? outage('introspection') : TE.right(answer);
  };
  const resolve = resolvePrincipal({
    introspect,
    sign: (audience, p) => TE.right(`signed:${audience}:${p.sub}:${p.sites.length}`),
  });
  return {
    introspected,
    authenticate: authenticate({ verify, resolve, clock: { now: () => new Date(5_000) } }),
  };
};

const active = (
  sites: number[],
  extra: Partial<{ sub: string; token_id: string; test_mode_only: boolean }> = {},
): TokenIntrospection => ({
  active: true,
  sub: 'alice',
  token_id: 'tok-1',
  sites: sites.map((id) => ({ id, name: `Site ${id}` })),
  ...extra,
});

const routeOf = (path: string): RouteSpec => GATEWAY_ROUTES.find((r) => r.path === path)!;
const siteRoute = routeOf('/v1.1/sites/:site/requests');
const sendRoute = routeOf('/v1.1/requests/:id/send');
const site = (raw: string) => ({ raw, id: siteIdOf(raw) });

const admitWith = (verdict: Verdict, answer: TokenIntrospection | 'down', policies: RatePolicies = {}) => {
  const f = fakes(verdict, answer);
  return {
    ...f,
    admit: admit({
      authenticate: f.authenticate,
      limit: memoryRateLimiter({ now: () => 0, maxBuckets: 100 }),
      policies,
    }),
  };
};

/** The refusal's tag, 'Admitted', or the rejection's class name. */
const tagOf = async (result: Promise<E.Either<{ _tag: string }, unknown>>) => {
  const r = await result.catch((error: unknown) => {
    assert.ok(error instanceof AuthUnavailable);
    return 'rejects AuthUnavailable';
  });
  return typeof r === 'string' ? r : E.isLeft(r) ? r.left._tag : 'Admitted';
};

describe('gateway: admitting a call', () => {
  it('admits a token that verifies and is active, forwarding the signed principal', async () => {
    const { admit: run } = admitWith(E.right(claims), active([7]));
    const result = await run({ route: siteRoute, site: site('7'), authorization: `Bearer ${TOKEN}` })();
    assert.deepEqual(result, E.right({ forwardedPrincipal: 'signed:esign-requests:alice:1', rate: [] }));
  });

  it('refuses a missing or malformed bearer before any lookup', async () => {
    const { admit: run, introspected } = admitWith(E.right(claims), active([7]));
    const refuse = (authorization: string | undefined) =>
      run({ route: siteRoute, site: site('7'), authorization })();
    assert.deepEqual(await refuse(undefined), E.left({ _tag: 'MissingToken' }));
    for (const header of ['Basic abc', 'Bearer', 'Bearer a.b', 'Bearer a.b.c d', 'Bearer a.b.c!']) {
      assert.deepEqual(await refuse(header), E.left({ _tag: 'TokenRejected', reason: 'malformed' }), header);
    }
    assert.equal(await tagOf(refuse('bearer  h.p.s')), 'Admitted');
    assert.deepEqual(introspected, ['tok-1']);
  });

  it('maps verifier and introspection outcomes: rejected, inactive, and an outage rejects', async () => {
    const call = (verdict: Verdict, answer: TokenIntrospection | 'down') =>
      tagOf(
        admitWith(verdict, answer).admit({
          route: sendRoute,
          site: undefined,
          authorization: `Bearer ${TOKEN}`,
        })(),
      );
    assert.equal(
      await call(E.left({ _tag: 'TokenRejected', reason: 'expired' }), active([7])),
      'TokenRejected',
    );
    assert.equal(await call('down', active([7])), 'rejects AuthUnavailable');
    assert.equal(await call(E.right(claims), { active: false }), 'TokenInactive');
    assert.equal(await call(E.right(claims), 'down'), 'rejects AuthUnavailable');
    // An answer about another token or another subject does not vouch for this one.
    assert.equal(await call(E.right(claims), active([7], { token_id: 'tok-2' })), 'TokenInactive');
    assert.equal(await call(E.right(claims), active([7], { sub: 'mallory' })), 'TokenInactive');
  });

  it('checks expiry on every call, also when the verifier reuses an earlier verdict', async () => {
    const verify: AccessTokenVerifier = () => TE.right(claims);
    const resolve = resolvePrincipal({
      introspect: () => TE.right(active([7])),
      sign: () => TE.right('p'),
    });
    let now = 14_999; // exp 10 s plus 5 s of tolerated skew
    const run = authenticate({ verify, resolve, clock: { now: () => new Date(now) } });
    assert.ok(E.isRight(await run(`Bearer ${TOKEN}`)()));
    now = 15_000;
    assert.deepEqual(await run(`Bearer ${TOKEN}`)(), E.left({ _tag: 'TokenRejected', reason: 'expired' }));
  });

  it('scopes site routes: an unreached, unknown or non-canonical site is not found', async () => {
    const { admit: run } = admitWith(E.right(claims), active([7, 8]));
    const on = (raw: string) =>
      tagOf(run({ route: siteRoute, site: site(raw), authorization: `Bearer ${TOKEN}` })());
    assert.equal(await on('8'), 'Admitted');
    assert.equal(await on('9'), 'SiteNotFound');
    assert.equal(await on('07'), 'SiteNotFound');
    assert.equal(await on('seven'), 'SiteNotFound');
  });

  it('charges per token and per site, send and remind against a stricter limit too', async () => {
    const policies: RatePolicies = {
      token: { name: 'token', quota: 5, windowSeconds: 60 },
      site: { name: 'site', quota: 3, windowSeconds: 60 },
      costly: { name: 'costly', quota: 1, windowSeconds: 60 },
    };
    const { admit: run } = admitWith(E.right(claims), active([7, 8]), policies);
    const auth = `Bearer ${TOKEN}`;
    const first = await run({ route: siteRoute, site: site('7'), authorization: auth })();
    assert.deepEqual(E.isRight(first) && first.right.rate.map((s) => [s.policy.name, s.remaining]), [
      ['token', 4],
      ['site', 2],
    ]);
    await run({ route: siteRoute, site: site('7'), authorization: auth })();
    await run({ route: siteRoute, site: site('7'), authorization: auth })();
    // Site 7 is spent; site 8 has its own bucket; the token still has 2 calls.
    assert.equal(
      await tagOf(run({ route: siteRoute, site: site('7'), authorization: auth })()),
      'RateLimited',
    );
    assert.equal(await tagOf(run({ route: sendRoute, site: undefined, authorization: auth })()), 'Admitted');
    const secondSend = await run({ route: sendRoute, site: undefined, authorization: auth })();
    assert.ok(E.isLeft(secondSend) && secondSend.left._tag === 'RateLimited');
    assert.equal(secondSend.left.retryAfterSeconds, 60);
    // The refused send took nothing from the token's own bucket: one call is left on it.
    assert.equal(await tagOf(run({ route: siteRoute, site: site('8'), authorization: auth })()), 'Admitted');
    assert.equal(
      await tagOf(run({ route: siteRoute, site: site('8'), authorization: auth })()),
      'RateLimited',
    );
  });

  it('issue #22: a test-only token sends against its own, separate bucket', async () => {
    const policies: RatePolicies = {
      costly: { name: 'costly', quota: 1, windowSeconds: 60 },
      costlyTest: { name: 'costly_test', quota: 2, windowSeconds: 60 },
    };
    const auth = `Bearer ${TOKEN}`;
    const testOnly = admitWith(E.right(claims), active([7], { test_mode_only: true }), policies).admit;
    const send = () => tagOf(testOnly({ route: sendRoute, site: undefined, authorization: auth })());
    const first = await testOnly({ route: sendRoute, site: undefined, authorization: auth })();
    assert.deepEqual(E.isRight(first) && first.right.rate.map((s) => [s.policy.name, s.remaining]), [
      ['costly_test', 1],
    ]);
    assert.equal(await send(), 'Admitted');
    assert.equal(await send(), 'RateLimited');
  });

  it('passes public routes through without authenticating', async () => {
    const { admit: run, introspected } = admitWith('down', 'down');
    const result = await run({ route: routeOf('/sign*'), site: undefined, authorization: undefined })();
    assert.deepEqual(result, E.right({ forwardedPrincipal: undefined, rate: [] }));
    assert.deepEqual(introspected, []);
  });

  it('admits anonymous calls (POST /v1.1/verify) without a token, limited per client address', async () => {
    const anonymous = { name: 'anonymous', quota: 2, windowSeconds: 60 };
    const { admit: run, introspected } = admitWith(E.right(claims), active([7]), { anonymous });
    const verify = routeOf('/v1.1/verify');
    assert.equal(verify.access, 'anonymous');
    const call = (clientAddress: string) =>
      tagOf(run({ route: verify, site: undefined, authorization: undefined, clientAddress })());
    assert.equal(await call('198.51.100.7'), 'Admitted');
    assert.equal(await call('198.51.100.7'), 'Admitted');
    assert.equal(await call('198.51.100.7'), 'RateLimited');
    assert.equal(await call('203.0.113.9'), 'Admitted', 'another address has its own bucket');
    assert.deepEqual(introspected, [], 'no token is looked at');
    const admitted = await run({
      route: verify,
      site: undefined,
      authorization: undefined,
      clientAddress: '192.0.2.1',
    })();
    assert.ok(E.isRight(admitted));
    assert.equal(admitted.right.forwardedPrincipal, undefined, 'nobody is forwarded as the caller');

    const { admit: unlimited } = admitWith(E.right(claims), active([7]));
    for (let i = 0; i < 5; i++)
      assert.equal(
        await tagOf(
          unlimited({ route: verify, site: undefined, authorization: undefined, clientAddress: 'x' })(),
        ),
        'Admitted',
        'RATE_LIMIT_ANONYMOUS=off admits every call',
      );
  });
});
