// The gateway's authorization matrix against the real services: every endpoint the gateway
// routes × every kind of credential a caller may present gives exactly the expected status,
// and no answer carries data of a site the credential does not reach.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { apiClient, bearer, expectStatus, type Answer } from './support/client.js';
import {
  agreementRequest,
  clientOf,
  executionUrlIn,
  publishedAgreement,
  unique,
  uniqueMobile,
  waitForMail,
  type ClientOf,
  type RequestBody,
} from './support/flow.js';
import { signAt } from './support/signer.js';

const KINDS = ['none', 'malformed', 'expired', 'revoked', 'forged', 'other', 'own'] as const;
type Kind = (typeof KINDS)[number];

/** What one endpoint is called with; `prepare` makes fresh resources of the own site. */
interface Fixture {
  readonly path: string;
  readonly body?: unknown;
  /** Checked after the refused calls: they changed nothing. */
  readonly unchanged?: () => Promise<void>;
}

interface Endpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly prepare: () => Promise<Fixture>;
  /** The status for each kind; the default: 401 for bad credentials, 404 for `other`. */
  readonly expect: Partial<Record<Kind, number>>;
  /** Served by the notifier (the webhook API) rather than requests or auth. */
  readonly notifier?: true;
}

const refusedByDefault = (kind: Kind): number | undefined =>
  kind === 'own' ? undefined : kind === 'other' ? 404 : 401;

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

  const draft = async (): Promise<RequestBody> =>
    expectStatus(
      await acme.api.post<RequestBody>(
        `/v1.1/sites/${acme.site}/requests`,
        agreementRequest(template, { email: `m-${unique()}@example.com`, mobile: uniqueMobile() }),
      ),
      201,
    ).body;
  const sent = async (): Promise<RequestBody> => {
    const view = await draft();
    expectStatus(await acme.api.post(`/v1.1/requests/${view.id}/send`), 200);
    return view;
  };
  const stateIs = (id: string, state: string) => async () => {
    const view = expectStatus(await acme.api.get<RequestBody>(`/v1.1/requests/${id}`), 200).body;
    assert.equal(view.state, state, `request ${id} is still ${state}`);
  };
  const draftTemplate = async (): Promise<number> =>
    expectStatus(
      await acme.api.post<{ id: number }>(`/v1.1/sites/${acme.site}/contracts`, {
        type: 'html',
        name: `Draft ${unique()}`,
        html: '<p>{{x}}</p>',
        fields: [],
      }),
      201,
    ).body.id;
  const webhookBody = () => ({
    url: `https://127.0.0.1:9/esign/${unique()}`,
    event_types: ['request.expired'],
    alert_email: 'ops@acme.example',
  });
  const webhook = async (): Promise<string> =>
    expectStatus(
      await acme.api.post<{ id: string }>(`/v1.1/sites/${acme.site}/webhooks`, webhookBody()),
      201,
      'create webhook',
    ).body.id;

  const ENDPOINTS: Endpoint[] = [
    {
      name: 'GET /v1.1/sites/:id/requests',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/requests` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/sites/:id/requests',
      method: 'POST',
      prepare: () =>
        Promise.resolve({
          path: `/v1.1/sites/${acme.site}/requests`,
          body: agreementRequest(template, { email: `c-${unique()}@example.com`, mobile: uniqueMobile() }),
        }),
      expect: { own: 201 },
    },
    {
      name: 'GET /v1.1/sites/:id/contracts',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/contracts` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/sites/:id/contracts',
      method: 'POST',
      prepare: () =>
        Promise.resolve({
          path: `/v1.1/sites/${acme.site}/contracts`,
          body: { type: 'html', name: `T ${unique()}`, html: '<p>{{a}}</p>', fields: [] },
        }),
      expect: { own: 201 },
    },
    {
      name: 'GET /v1.1/contracts/:id',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/contracts/${template}` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/contracts/:id/publish',
      method: 'POST',
      prepare: async () => ({ path: `/v1.1/contracts/${await draftTemplate()}/publish` }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/requests/:id',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/requests/${(await draft()).id}` }),
      expect: { own: 200 },
    },
    {
      name: 'PATCH /v1.1/requests/:id',
      method: 'PATCH',
      prepare: async () => {
        const view = await sent();
        return {
          path: `/v1.1/requests/${view.id}`,
          body: { reminder_interval_days: 3 },
          unchanged: async () => {
            const read = expectStatus(
              await acme.api.get<{ reminder_interval_days: number | null }>(`/v1.1/requests/${view.id}`),
              200,
            ).body;
            assert.equal(read.reminder_interval_days, null, 'no reminders set by a refused call');
          },
        };
      },
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/requests/:id/events',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/requests/${(await sent()).id}/events` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/requests/:id/send',
      method: 'POST',
      prepare: async () => {
        const view = await draft();
        return { path: `/v1.1/requests/${view.id}/send`, unchanged: stateIs(view.id, 'draft') };
      },
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/requests/:id/remind',
      method: 'POST',
      prepare: async () => {
        const view = await sent();
        // The reminder interval (1 s here) runs from the send.
        await new Promise((r) => setTimeout(r, 1100));
        return { path: `/v1.1/requests/${view.id}/remind` };
      },
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/requests/:id/cancel',
      method: 'POST',
      prepare: async () => {
        const view = await sent();
        return { path: `/v1.1/requests/${view.id}/cancel`, unchanged: stateIs(view.id, 'sent') };
      },
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/requests/:id/download',
      method: 'GET',
      prepare: async () => {
        const email = `dl-${unique()}@example.com`;
        const view = expectStatus(
          await acme.api.post<RequestBody>(`/v1.1/sites/${acme.site}/requests`, {
            contracts: [template],
            signers: [{ signer_id: `dl-${unique()}`, signer: { email }, send_to: { email: true } }],
            fields: [{ name: 'full_name', assigned_to: email }],
          }),
          201,
        ).body;
        expectStatus(await acme.api.post(`/v1.1/requests/${view.id}/send`), 200);
        const signed = await signAt(
          executionUrlIn((await waitForMail(system, email)).mail.text ?? ''),
          'D L',
        );
        assert.equal(signed.status, 303);
        return { path: `/v1.1/requests/${view.id}/download` };
      },
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/sites/:id/webhooks',
      notifier: true,
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/webhooks` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/sites/:id/webhooks',
      notifier: true,
      method: 'POST',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/webhooks`, body: webhookBody() }),
      expect: { own: 201 },
    },
    {
      name: 'GET /v1.1/sites/:id/webhooks/:id',
      notifier: true,
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}` }),
      expect: { own: 200 },
    },
    {
      name: 'PATCH /v1.1/sites/:id/webhooks/:id',
      notifier: true,
      method: 'PATCH',
      prepare: async () => ({
        path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}`,
        body: { description: 'changed' },
      }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/sites/:id/webhooks/:id/rotate-secret',
      notifier: true,
      method: 'POST',
      prepare: async () => ({
        path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}/rotate-secret`,
        body: {},
      }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/sites/:id/webhooks/:id/deliveries',
      notifier: true,
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}/deliveries` }),
      expect: { own: 200 },
    },
    {
      name: 'DELETE /v1.1/sites/:id/webhooks/:id',
      notifier: true,
      method: 'DELETE',
      prepare: async () => ({ path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}` }),
      expect: { own: 204 },
    },
    // Auth's self-service API takes sessions, not access tokens: every kind is refused alike.
    ...['/v1.1/apps', '/v1.1/tokens', '/v1.1/sessions/current'].map((path): Endpoint => ({
      name: `GET ${path}`,
      method: 'GET',
      prepare: () => Promise.resolve({ path }),
      expect: Object.fromEntries(KINDS.map((k) => [k, 401])),
    })),
    // Public: the key set answers everyone the same.
    {
      name: 'GET /.well-known/jwks.json',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/.well-known/jwks.json' }),
      expect: Object.fromEntries(KINDS.map((k) => [k, 200])),
    },
  ];

  /** Calls every endpoint with every kind of credential; answers the mismatches and the table. */
  const runMatrix = async (endpoints: readonly Endpoint[]) => {
    const failures: string[] = [];
    const table: string[] = [];
    for (const endpoint of endpoints) {
      let fixture: Fixture;
      try {
        fixture = await endpoint.prepare();
      } catch (error) {
        failures.push(`${endpoint.name}: could not prepare the call: ${(error as Error).message}`);
        continue;
      }
      const row: string[] = [];
      for (const kind of KINDS) {
        const expected = endpoint.expect[kind] ?? refusedByDefault(kind);
        const answer: Answer = await apiClient(system.gatewayUrl, credentials[kind]).call(
          endpoint.method,
          fixture.path,
          fixture.body,
        );
        row.push(`${kind}=${answer.status}`);
        if (answer.status !== expected)
          failures.push(
            `${endpoint.name} with ${kind}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 300)}`,
          );
        if (answer.status === 500 || /\bat .+:\d+:\d+\)/.test(answer.text))
          failures.push(`${endpoint.name} with ${kind}: a server error or a stack trace`);
        const everything = `${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${answer.text}`;
        // Own sees only Acme's data; other only Globex's; a refused credential nobody's.
        const foreign =
          kind === 'own'
            ? markers.globex
            : kind === 'other'
              ? markers.acme
              : [...markers.acme, ...markers.globex];
        const leaked = foreign.filter((m) => everything.includes(m));
        if (leaked.length > 0) failures.push(`${endpoint.name} with ${kind}: leaked ${leaked.join(', ')}`);
        // The refused calls come first; check they changed nothing before the own one.
        if (kind === 'other') await fixture.unchanged?.();
      }
      table.push(`${endpoint.name.padEnd(48)} ${row.join(' ')}`);
    }
    if (process.env.E2E_PRINT_MATRIX !== undefined) console.log(table.join('\n'));
    assert.deepEqual(failures, [], `\n${failures.join('\n')}\n\n${table.join('\n')}`);
  };

  it('gives every endpoint × credential exactly the expected status, and leaks nothing', () =>
    runMatrix(ENDPOINTS.filter((e) => e.notifier === undefined)));

  it('does the same for the webhook API the notifier serves', () =>
    runMatrix(ENDPOINTS.filter((e) => e.notifier === true)));

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
