// The endpoints of the gateway's authorization matrix that change a draft's make-up: its
// signers added and removed (ADR 3280), its contracts added and removed (ADR 3300) and
// reordered (ADR 3310); and a new draft copied from a Request (ADR 3330).
import assert from 'node:assert/strict';
import { expectStatus } from './client.js';
import { publishedAgreement, unique, type ClientOf, type RequestBody } from './flow.js';
import type { Endpoint } from './matrix-kinds.js';

/** The draft calls for `acme` (the own site), each on a fresh draft made by `draft`. */
export const draftEndpoints = (acme: ClientOf, draft: () => Promise<RequestBody>): Endpoint[] => {
  const signersAre = (view: RequestBody) => async () => {
    const read = expectStatus(await acme.api.get<RequestBody>(`/v1.1/requests/${view.id}`), 200).body;
    assert.equal(read.signers.length, view.signers.length, 'no signer added by a refused call');
  };
  /** A second published template of the own site, for a draft's contracts (ADR 3300). */
  const secondTemplate = async (): Promise<number> => publishedAgreement(acme);
  const contractsAre = (id: string, count: number) => async () => {
    const read = expectStatus(await acme.api.get<{ contracts: number[] }>(`/v1.1/requests/${id}`), 200).body;
    assert.equal(read.contracts.length, count, 'no contract added or removed by a refused call');
  };
  return [
    // A draft's signers added and removed (ADR 3280).
    {
      name: 'POST /v1.1/requests/:id/signers',
      method: 'POST',
      prepare: async () => {
        const view = await draft();
        return {
          path: `/v1.1/requests/${view.id}/signers`,
          body: { signer_id: `m-${unique()}`, signer: { email: `m-${unique()}@example.com` } },
          unchanged: signersAre(view),
        };
      },
      expect: { own: 201 },
    },
    {
      name: 'DELETE /v1.1/requests/:id/signers/:id',
      method: 'DELETE',
      prepare: async () => {
        const view = await draft();
        const second = `m-${unique()}`;
        expectStatus(
          await acme.api.post(`/v1.1/requests/${view.id}/signers`, { signer_id: second }),
          201,
          'add a second signer',
        );
        return {
          path: `/v1.1/requests/${view.id}/signers/${second}`,
          unchanged: async () => {
            const read = expectStatus(await acme.api.get<RequestBody>(`/v1.1/requests/${view.id}`), 200).body;
            assert.equal(read.signers.length, view.signers.length + 1, 'no signer removed by a refused call');
          },
        };
      },
      expect: { own: 200 },
    },
    // A draft's contracts added and removed (ADR 3300).
    {
      name: 'POST /v1.1/requests/:id/contracts',
      method: 'POST',
      prepare: async () => {
        const view = await draft();
        return {
          path: `/v1.1/requests/${view.id}/contracts`,
          body: { contract_id: await secondTemplate() },
          unchanged: contractsAre(view.id, 1),
        };
      },
      expect: { own: 201 },
    },
    {
      name: 'PUT /v1.1/requests/:id/contracts',
      method: 'PUT',
      prepare: async () => {
        const view = await draft();
        const added = expectStatus(
          await acme.api.post<{ contracts: number[] }>(`/v1.1/requests/${view.id}/contracts`, {
            contract_id: await secondTemplate(),
          }),
          201,
        ).body.contracts;
        const orderStands = async () => {
          const read = expectStatus(
            await acme.api.get<{ contracts: number[] }>(`/v1.1/requests/${view.id}`),
            200,
          );
          assert.deepEqual(read.body.contracts, added, 'not reordered by a refused call');
        };
        return {
          path: `/v1.1/requests/${view.id}/contracts`,
          body: { contract_ids: [...added].reverse() },
          unchanged: orderStands,
        };
      },
      expect: { own: 200 },
    },
    {
      name: 'DELETE /v1.1/requests/:id/contracts/:id',
      method: 'DELETE',
      prepare: async () => {
        const view = await draft();
        const second = await secondTemplate();
        expectStatus(
          await acme.api.post(`/v1.1/requests/${view.id}/contracts`, { contract_id: second }),
          201,
        );
        return { path: `/v1.1/requests/${view.id}/contracts/${second}`, unchanged: contractsAre(view.id, 2) };
      },
      expect: { own: 200 },
    },
    // A new draft copied from a Request (ADR 3330).
    {
      name: 'POST /v1.1/requests/:id/copy',
      method: 'POST',
      prepare: async () => {
        const view = await draft();
        const total = async () =>
          expectStatus(await acme.api.get<{ total_count: number }>(`/v1.1/sites/${acme.site}/requests`), 200)
            .body.total_count;
        const before = await total();
        return {
          path: `/v1.1/requests/${view.id}/copy`,
          unchanged: async () => assert.equal(await total(), before, 'a refused copy made nothing'),
        };
      },
      expect: { own: 201 },
    },
  ];
};
