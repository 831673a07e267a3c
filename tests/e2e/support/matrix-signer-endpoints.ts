// The endpoints of the gateway's authorization matrix that act on one signer of a sent
// Request: a new Execution URL (ADR 1321), a corrected contact (ADR 3140), someone else in
// their place (ADR 3550), and a URL for an embedding iframe (ADR 2300).
import assert from 'node:assert/strict';
import { expectStatus } from './client.js';
import { clientRef, unique, type ClientOf, type RequestBody } from './flow.js';
import type { Endpoint, Fixture } from './matrix-kinds.js';

/** The one-signer calls for `acme` (the own site), each on a fresh Request sent by `sent`. */
export const signerEndpoints = (acme: ClientOf, sent: () => Promise<RequestBody>): Endpoint[] => {
  /** The e-mailed signer of a fresh sent Request; the fixture checks the signers as they were. */
  const onSigner = async (
    path: (request: string, signer: string) => string,
    body?: unknown,
  ): Promise<Fixture> => {
    const view = await sent();
    const before = view.signers.map((s) => [s.signer_id, s.email, s.request_url]);
    const signer = view.signers.find((s) => s.email !== null)!;
    return {
      path: path(view.id, encodeURIComponent(signer.signer_id)),
      body,
      unchanged: async () => {
        const read = expectStatus(await acme.api.get<RequestBody>(`/v1.1/requests/${view.id}`), 200).body;
        assert.deepEqual(
          read.signers.map((s) => [s.signer_id, s.email, s.request_url]),
          before,
          'no signer, address or link changed by a refused call',
        );
      },
    };
  };
  return [
    {
      name: 'POST /v1.1/requests/:id/signers/:id/execution_url',
      method: 'POST',
      prepare: () => onSigner((r, s) => `/v1.1/requests/${r}/signers/${s}/execution_url`, {}),
      expect: { own: 200 },
    },
    {
      name: 'PATCH /v1.1/requests/:id/signers/:id',
      method: 'PATCH',
      prepare: () =>
        onSigner((r, s) => `/v1.1/requests/${r}/signers/${s}`, {
          signer: { email: `fixed-${unique()}@example.com` },
        }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/requests/:id/signers/:id/replace',
      method: 'POST',
      prepare: () => {
        const email = `instead-${unique()}@example.com`;
        return onSigner((r, s) => `/v1.1/requests/${r}/signers/${s}/replace`, {
          signer_id: clientRef(email),
          signer: { email },
          send_to: { email: true },
        });
      },
      expect: { own: 200 },
    },
    {
      // The tenant's app allows no frame origin, so the own call reaches the app's check and
      // is told to name one (422 at parent_origin); every other credential stops before it.
      name: 'POST /v1.1/requests/:id/signers/:id/embedded_url',
      method: 'POST',
      prepare: () => onSigner((r, s) => `/v1.1/requests/${r}/signers/${s}/embedded_url`, {}),
      expect: { own: 422 },
    },
  ];
};
