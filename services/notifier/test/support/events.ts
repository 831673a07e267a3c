import { randomUUID } from 'node:crypto';
import type { NotifiedSigner, RequestReminded, RequestSent } from '@esign/contracts';

let counter = 0;

/** A signer as the requests service lists it in request.sent, with overridable parts. */
export const signer = (overrides: Partial<NotifiedSigner> & { ref?: string } = {}): NotifiedSigner => {
  counter++;
  const ref = overrides.ref ?? overrides.signer_ref ?? `sg_${counter}_${randomUUID().slice(0, 8)}`;
  const { ref: _ref, ...rest } = overrides;
  return {
    signer_id: `signer-${counter}@example.com`,
    signer_ref: ref,
    email: `signer-${counter}@example.com`,
    mobile_number: null,
    send_to: { email: true, mobile_number: false },
    request_url: `https://esign.example/sign?r=rq_1&s=${ref}&signature=sig${counter}`,
    ...rest,
  };
};

export const requestSent = (
  signers: NotifiedSigner[],
  overrides: Partial<RequestSent['data']> & { id?: string } = {},
): RequestSent => {
  const { id, ...data } = overrides;
  return {
    id: id ?? randomUUID(),
    type: 'request.sent',
    occurred_at: '2025-03-01T10:00:00.000Z',
    site_id: 7,
    aggregate_id: data.request_id ?? 'rq_1',
    data: {
      request_id: 'rq_1',
      site: { id: 7, name: 'Acme Lettings' },
      contracts: [
        { id: 11, name: 'Tenancy agreement' },
        { id: 12, name: 'Inventory' },
      ],
      signers,
      expires_at: null,
      ...data,
    },
  };
};

export const requestReminded = (signers: NotifiedSigner[]): RequestReminded => ({
  ...requestSent(signers),
  type: 'request.reminded',
});
