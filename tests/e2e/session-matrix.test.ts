// The session matrix against the real services, through the gateway: every operation of the
// self-service and account API (a person's session, not an access token) × every kind of
// caller gives exactly the expected status, changes nothing when refused, and no answer
// carries data of an account the caller is not in. The access-token API's matrix is
// gateway-matrix.test.ts.
import assert from 'node:assert/strict';
import { OPERATIONS } from '@esign/contracts/openapi';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { apiClient, bearer, expectStatus, type ApiClient } from './support/client.js';
import { runCredentialMatrix } from './support/credential-matrix.js';
import { unique } from './support/flow.js';
import { accountEndpoints } from './support/session-matrix-account-endpoints.js';
import {
  SESSION_KINDS,
  sessionClient,
  sessionRefusedByDefault,
  type SessionEndpoint,
  type SessionKind,
  type SessionWorld,
} from './support/session-matrix-kinds.js';
import { selfServiceEndpoints } from './support/session-matrix-self-endpoints.js';

const PASSWORD = 'a long passphrase for the session matrix';

describe('end to end through the gateway: the session matrix', function () {
  this.timeout(240_000);
  let system: EsignSystem;
  let world: SessionWorld;
  const credentials = {} as Record<SessionKind, string | undefined>;
  const markers = { acme: [] as string[], globex: [] as string[] };

  before(async () => {
    system = await startEsignSystem({
      label: 'e2e_session_matrix',
      // The matrix signs in some twenty times from one address within a minute.
      env: { auth: { ANONYMOUS_LIMIT_PER_CLIENT_PER_MINUTE: '1000' } },
    });
    const [acme, globex] = await Promise.all([system.createTenant('Acme'), system.createTenant('Globex')]);
    // Each tenant's user is its account's first, so its admin; both get the known password.
    await Promise.all(
      [acme, globex].map((t) => system.admin('set-password', '--user', t.user.email, '--password', PASSWORD)),
    );
    const signIn = async (email: string, password = PASSWORD) =>
      expectStatus(
        await apiClient(system.gatewayUrl).post<{ session_token: string }>('/v1.1/sessions', {
          email,
          password,
        }),
        201,
        `${email} signs in`,
      ).body.session_token;
    const newMember = async (password = PASSWORD) => {
      const email = `member-${unique()}@acme.example`;
      const { user } = (await system.admin(
        'create-user',
        '--account',
        acme.accountId,
        '--email',
        email,
        '--password',
        password,
      )) as { user: { id: string } };
      await system.admin('add-member', '--site', String(acme.site.id), '--user', email);
      return { id: user.id, email, session: await signIn(email, password) };
    };
    const own = await signIn(acme.user.email);
    const admin: ApiClient = sessionClient(system.gatewayUrl, own);
    world = {
      gatewayUrl: system.gatewayUrl,
      password: PASSWORD,
      admin,
      adminEmail: acme.user.email,
      otherEmail: globex.user.email,
      site: acme.site.id,
      signIn,
      newMember,
    };
    const member = await newMember();
    const ended = await signIn(acme.user.email);
    expectStatus(await sessionClient(system.gatewayUrl, ended).call('DELETE', '/v1.1/sessions/current'), 204);
    const access = expectStatus(
      await admin.post<{ access_token: string }>('/v1.1/sessions/current/access-token'),
      201,
    ).body.access_token;
    Object.assign(credentials, {
      none: undefined,
      malformed: 'Bearer not-a-session',
      access: bearer(access),
      ended: bearer(ended),
      other: bearer(await signIn(globex.user.email)),
      member: bearer(member.session),
      own: bearer(own),
    });
    markers.acme.push(acme.site.name, acme.user.email, member.email);
    markers.globex.push(globex.site.name, globex.user.email);
  });
  after(async () => {
    await system?.stop();
  });

  const endpoints = (): SessionEndpoint[] => [...selfServiceEndpoints(world), ...accountEndpoints(world)];

  /** The data a kind of caller must not see: another account's, or any for a refused one. */
  const foreignTo = (kind: SessionKind): string[] =>
    kind === 'own' || kind === 'member'
      ? markers.globex
      : kind === 'other'
        ? markers.acme
        : [...markers.acme, ...markers.globex];

  it('gives every session operation × caller exactly the expected status, and leaks nothing', () =>
    runCredentialMatrix({
      gatewayUrl: system.gatewayUrl,
      kinds: SESSION_KINDS,
      credentials,
      endpoints: endpoints(),
      refused: sessionRefusedByDefault,
      foreignTo,
    }));

  it('calls every operation the OpenAPI document says takes a session', () => {
    const named = new Set(endpoints().map((e) => e.name));
    const missing = OPERATIONS.filter((op) => op.auth === 'session')
      .map((op) => `${op.method.toUpperCase()} ${op.path.replace(/\{[a-z_]+\}/g, ':id')}`)
      .filter((name) => !named.has(name));
    assert.deepEqual(missing, [], 'operations the matrix does not call');
  });
});
