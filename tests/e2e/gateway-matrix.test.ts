// The gateway's authorization matrix against the real services: every endpoint the gateway
// routes × every kind of credential a caller may present gives exactly the expected status,
// and no answer carries data of a site the credential does not reach.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { OPERATIONS } from '@esign/contracts/openapi';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { apiClient, bearer, expectStatus } from './support/client.js';
import { runCredentialMatrix } from './support/credential-matrix.js';
import {
  agreementRequest,
  clientOf,
  publishedAgreement,
  unique,
  uniqueMobile,
  type ClientOf,
  type RequestBody,
} from './support/flow.js';
import {
  KINDS,
  matrixEndpoints,
  refusedByDefault,
  type Endpoint,
  type Kind,
} from './support/matrix-endpoints.js';

/** The same header and claims as `token`, signed with a key the issuer never had. */
const forge = (token: string): string => {
  const [header, payload] = token.split('.');
  const { privateKey } = generateKeyPairSync('ed25519');
  const signature = sign(null, Buffer.from(`${header}.${payload}`), privateKey);
  return `${header}.${payload}.${signature.toString('base64url')}`;
};

const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('end to end through the gateway: the authorization matrix', function () {
  this.timeout(180_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let globex: ClientOf;
  let template: number;
  const credentials = {} as Record<Kind, string | undefined>;
  /** Data of each site that no call names in its path or body. */
  const markers = { acme: [] as string[], globex: [] as string[] };

  before(async () => {
    system = await startEsignSystem({
      label: 'e2e_matrix',
      // A reminder right after the send is what the matrix calls.
      env: {
        requests: { REMIND_MIN_INTERVAL_SECONDS: '1' },
        // No DNS here: endpoints are registered by address, one nothing listens on, for an
        // event the matrix never causes, so nothing is ever delivered.
        notifier: { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' },
      },
    });
    const [a, g] = await Promise.all([system.createTenant('Acme'), system.createTenant('Globex')]);
    acme = clientOf(system, a);
    globex = clientOf(system, g);
    template = await publishedAgreement(acme);

    const revoked = (await system.admin('create-token', '--app', a.appId)) as {
      token: { id: string };
      access_token: string;
    };
    await system.admin('revoke-token', '--token', revoked.token.id);
    const now = Math.floor(Date.now() / 1000);
    credentials.own = bearer(a.token.accessToken);
    credentials.other = bearer(g.token.accessToken);
    credentials.none = undefined;
    credentials.malformed = 'Bearer not-a-jwt';
    // The real token, re-signed by the real issuer key, its only fault its expiry.
    credentials.expired = bearer(
      await system.signAsIssuer({ ...claimsOf(a.token.accessToken), iat: now - 7200, exp: now - 3600 }),
    );
    credentials.revoked = bearer(revoked.access_token);
    credentials.forged = bearer(forge(a.token.accessToken));

    // Data that must never cross sites: names, addresses and ids the calls do not carry.
    const acmeEmail = `acme-secret-${unique()}@example.com`;
    const acmeHidden = expectStatus(
      await acme.api.post<RequestBody>(
        `/v1.1/sites/${acme.site}/requests`,
        agreementRequest(template, { email: acmeEmail, mobile: uniqueMobile() }),
      ),
      201,
    ).body;
    const globexTemplate = await publishedAgreement(globex);
    const globexEmail = `globex-secret-${unique()}@example.com`;
    const globexHidden = expectStatus(
      await globex.api.post<RequestBody>(
        `/v1.1/sites/${globex.site}/requests`,
        agreementRequest(globexTemplate, { email: globexEmail, mobile: uniqueMobile() }),
      ),
      201,
    ).body;
    markers.acme.push(a.site.name, acmeEmail, acmeHidden.id);
    markers.globex.push(g.site.name, globexEmail, globexHidden.id);
  });
  after(async () => {
    await system?.stop();
  });

  /** Calls every endpoint with every kind of credential: own sees only Acme's data, other only Globex's. */
  const runMatrix = (endpoints: readonly Endpoint[]) =>
    runCredentialMatrix({
      gatewayUrl: system.gatewayUrl,
      kinds: KINDS,
      credentials,
      endpoints,
      refused: refusedByDefault,
      foreignTo: (kind) =>
        kind === 'own'
          ? markers.globex
          : kind === 'other'
            ? markers.acme
            : [...markers.acme, ...markers.globex],
    });

  it('gives every endpoint × credential exactly the expected status, and leaks nothing', () =>
    runMatrix(
      matrixEndpoints({ system, acme, template, otherSite: globex.site }).filter(
        (e) => e.notifier === undefined,
      ),
    ));

  it('does the same for the API the notifier serves (webhooks, a test Request’s messages)', () =>
    runMatrix(
      matrixEndpoints({ system, acme, template, otherSite: globex.site }).filter((e) => e.notifier === true),
    ));

  it('calls every operation the OpenAPI document says takes an access token', () => {
    const named = new Set(
      matrixEndpoints({ system, acme, template, otherSite: globex.site }).map((e) => e.name.split(' (')[0]),
    );
    const missing = OPERATIONS.filter((op) => op.auth === 'access_token')
      .map((op) => `${op.method.toUpperCase()} ${op.path.replace(/\{[a-z_]+\}/g, ':id')}`)
      .filter((name) => !named.has(name));
    assert.deepEqual(missing, [], 'operations the matrix does not call');
  });

  it('stops a token within the introspection bound once it is revoked', async () => {
    const issued = (await system.admin('create-token', '--app', acme.tenant.appId)) as {
      token: { id: string };
      access_token: string;
    };
    const client = apiClient(system.gatewayUrl, bearer(issued.access_token));
    expectStatus(await client.get(`/v1.1/sites/${acme.site}/requests`), 200);
    await system.admin('revoke-token', '--token', issued.token.id);
    const deadline = Date.now() + 15_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await client.get(`/v1.1/sites/${acme.site}/requests`)).status;
    }
    assert.equal(status, 401);
  });

  it('stops a token from reaching a site once its user is removed from it', async () => {
    const client = apiClient(system.gatewayUrl, bearer(globex.tenant.token.accessToken));
    const view = expectStatus(
      await client.get<{ total_count: number }>(`/v1.1/sites/${globex.site}/requests`),
      200,
    );
    assert.ok(view.body.total_count >= 1);
    await system.admin('remove-member', '--site', String(globex.site), '--user', globex.tenant.user.id);
    const deadline = Date.now() + 15_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await client.get(`/v1.1/sites/${globex.site}/requests`)).status;
    }
    assert.equal(status, 404);
  });
});
