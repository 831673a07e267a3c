// The endpoints of the gateway's authorization matrix that belong to a Site rather than to
// one Request: its bulk sends (ADRs 2201, 3440, 3450, 3480) and its branding (ADR 2301).
import assert from 'node:assert/strict';
import { expectStatus } from './client.js';
import { unique, type ClientOf } from './flow.js';
import type { Endpoint } from './matrix-kinds.js';

/** The Site calls for `acme` (the own site), whose published `template` bulk sends use. */
export const siteEndpoints = (acme: ClientOf, template: number): Endpoint[] => {
  const bulkSendBody = () => ({ contracts: [template], rows: [{ signers: [] }] });
  /** A bulk send whose only row is invalid: it completes as it starts, having made nothing. */
  const settledBulkSend = async () =>
    expectStatus(
      await acme.api.post<{ id: string }>(`/v1.1/sites/${acme.site}/bulk_sends`, bulkSendBody()),
      202,
      'start a bulk send',
    ).body;
  const bulkSendCount = async () =>
    expectStatus(await acme.api.get<{ total_count: number }>(`/v1.1/sites/${acme.site}/bulk_sends`), 200).body
      .total_count;
  const brandingFooter = async () =>
    expectStatus(
      await acme.api.get<{ email_footer: string | null }>(`/v1.1/sites/${acme.site}/branding`),
      200,
    ).body.email_footer;

  return [
    {
      name: 'POST /v1.1/sites/:id/bulk_sends',
      method: 'POST',
      prepare: async () => {
        const before = await bulkSendCount();
        return {
          path: `/v1.1/sites/${acme.site}/bulk_sends`,
          body: bulkSendBody(),
          unchanged: async () => {
            assert.equal(await bulkSendCount(), before, 'no bulk send started by a refused call');
          },
        };
      },
      expect: { own: 202 },
    },
    {
      // A Site's bulk sends (ADR 3440): a read of the Site, like its Requests.
      name: 'GET /v1.1/sites/:id/bulk_sends',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/bulk_sends` }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/bulk_sends/:id',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/bulk_sends/${(await settledBulkSend()).id}` }),
      expect: { own: 200 },
    },
    {
      // A bulk send whose only row is invalid completes as it starts: its cancel is a 409
      // (ADR 3450), for every credential that reaches it, and it stays uncancelled.
      name: 'POST /v1.1/bulk_sends/:id/cancel',
      method: 'POST',
      prepare: async () => {
        const started = await settledBulkSend();
        return {
          path: `/v1.1/bulk_sends/${started.id}/cancel`,
          unchanged: async () => {
            const now = expectStatus(
              await acme.api.get<{ cancelled_at: string | null }>(`/v1.1/bulk_sends/${started.id}`),
              200,
            );
            assert.equal(now.body.cancelled_at, null, 'a refused cancel changed nothing');
          },
        };
      },
      expect: { own: 409 },
    },
    {
      // A completed bulk send's Requests cancelled (ADR 3480): one whose only row is invalid
      // made none, so every credential that reaches it is told nothing was cancelled.
      name: 'POST /v1.1/bulk_sends/:id/cancel_requests',
      method: 'POST',
      prepare: async () => ({ path: `/v1.1/bulk_sends/${(await settledBulkSend()).id}/cancel_requests` }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/sites/:id/branding',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/branding` }),
      expect: { own: 200 },
    },
    {
      name: 'PUT /v1.1/sites/:id/branding',
      method: 'PUT',
      prepare: async () => {
        const before = await brandingFooter();
        return {
          path: `/v1.1/sites/${acme.site}/branding`,
          body: { email_footer: `Footer ${unique()}` },
          unchanged: async () => {
            assert.equal(await brandingFooter(), before, 'no branding changed by a refused call');
          },
        };
      },
      expect: { own: 200 },
    },
  ];
};
