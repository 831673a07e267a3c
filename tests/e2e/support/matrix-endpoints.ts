// The endpoints of the gateway's authorization matrix (tests/e2e/gateway-matrix.test.ts):
// each with the call that makes fresh resources of the own site, and the status expected
// for every kind of credential.
import assert from 'node:assert/strict';
import { eventually, type EsignSystem } from '@esign/testing';
import { expectStatus } from './client.js';
import {
  agreementRequest,
  executionUrlIn,
  unique,
  uniqueMobile,
  waitForMail,
  type ClientOf,
  type RequestBody,
} from './flow.js';
import { KINDS, type Endpoint } from './matrix-kinds.js';
import { contractEndpoints } from './matrix-contract-endpoints.js';
import { draftEndpoints } from './matrix-draft-endpoints.js';
import { signerEndpoints } from './matrix-signer-endpoints.js';
import { siteEndpoints } from './matrix-site-endpoints.js';
import { webhookEndpoints } from './matrix-webhook-endpoints.js';
import { signAt } from './signer.js';

export { KINDS, refusedByDefault, type Endpoint, type Fixture, type Kind } from './matrix-kinds.js';

/**
 * Every endpoint the gateway routes, for `acme` (the own site, with its published
 * `template`) on `system`; read after the matrix's `before` has made them.
 */
export const matrixEndpoints = ({
  system,
  acme,
  template,
  otherSite,
}: {
  readonly system: EsignSystem;
  readonly acme: ClientOf;
  readonly template: number;
  /** A Site the own credential does not reach (the `other` credential's). */
  readonly otherSite: number;
}): Endpoint[] => {
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

  /** A new signer of the own site: its path, its PUT body, and one made through the API. */
  const signerPath = () => `/v1.1/sites/${acme.site}/signers/m-${unique()}`;
  const signerBody = () => ({ signer: { email: `m-${unique()}@example.com` } });
  const siteSigner = async (): Promise<string> => {
    const path = signerPath();
    expectStatus(await acme.api.call('PUT', path, signerBody()), 201, 'make a signer');
    return path;
  };

  return [
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
      name: 'GET /v1.1/sites/:id/events',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/events` }),
      expect: { own: 200 },
    },
    ...siteEndpoints(acme, template),
    {
      name: 'GET /v1.1/sites/:id/signers',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/signers` }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/sites/:id/signers/:id',
      method: 'GET',
      prepare: async () => {
        const path = await siteSigner();
        return { path };
      },
      expect: { own: 200 },
    },
    {
      name: 'PUT /v1.1/sites/:id/signers/:id',
      method: 'PUT',
      prepare: () => {
        const path = signerPath();
        return Promise.resolve({
          path,
          body: signerBody(),
          unchanged: async () => {
            expectStatus(await acme.api.get(path), 404, 'no signer made by a refused call');
          },
        });
      },
      expect: { own: 201 },
    },
    {
      name: 'DELETE /v1.1/sites/:id/signers/:id',
      method: 'DELETE',
      prepare: async () => {
        const path = await siteSigner();
        return {
          path,
          unchanged: async () => {
            expectStatus(await acme.api.get(path), 200, 'a refused call deleted nothing');
          },
        };
      },
      expect: { own: 204 },
    },
    ...contractEndpoints(acme, template, otherSite),
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
    ...draftEndpoints(acme, draft),
    ...signerEndpoints(acme, sent),
    {
      name: 'GET /v1.1/requests/:id/events',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/requests/${(await sent()).id}/events` }),
      expect: { own: 200 },
    },
    {
      // What the signers entered (ADR 3730).
      name: 'GET /v1.1/requests/:id/field_values',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/requests/${(await sent()).id}/field_values` }),
      expect: { own: 200 },
    },
    {
      // A file a signer attached (ADR 3920): the sent Request's field is no attachment, so none,
      // but the own Site's token reaches the Request where another's gets its 404.
      name: 'GET /v1.1/requests/:id/attachments/:id',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/requests/${(await sent()).id}/attachments/field_1` }),
      expect: { own: 404 },
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
      // The messages a test-mode Request kept instead of sending (issue #22): the notifier's.
      // It keeps messages, not Requests, so a Request of a Site the credential does not reach
      // has none, as the document says: an empty page, the same as for an unknown id, and
      // none of Acme's messages (the leak check reads the answer for Acme's Site name).
      name: 'GET /v1.1/requests/:id/messages',
      notifier: true,
      method: 'GET',
      prepare: async () => {
        const view = expectStatus(
          await acme.api.post<RequestBody>(
            `/v1.1/sites/${acme.site}/requests`,
            agreementRequest(
              template,
              { email: `t-${unique()}@example.com`, mobile: uniqueMobile() },
              { test_mode: true },
            ),
          ),
          201,
        ).body;
        expectStatus(await acme.api.post(`/v1.1/requests/${view.id}/send`), 200);
        const path = `/v1.1/requests/${view.id}/messages`;
        // Kept before the matrix calls, so that an empty page for `other` hides something.
        await eventually(
          async () =>
            expectStatus(await acme.api.get<{ total_count: number }>(path), 200).body.total_count > 0 ||
            undefined,
          60_000,
          200,
        );
        return { path };
      },
      expect: { own: 200, other: 200 },
    },
    ...webhookEndpoints(acme, draft),
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
};
