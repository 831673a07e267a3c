import * as t from 'io-ts';
import { nullable } from './primitives.js';

/**
 * `POST /v1.1/verify`: whether a PDF is, byte for byte, an executed document this service
 * issued (`valid`), names one it issued but differs from it (`modified`), or neither (`unknown`).
 */
export const VerificationView = t.union([
  t.type({
    status: t.literal('valid'),
    file_sha256: t.string,
    request_id: t.string,
    completed_at: t.string,
    sealed_at: t.string,
    timestamped_at: nullable(t.string),
    certificate_sha256: t.string,
    document_sha256: t.string,
    contracts: t.array(t.type({ name: t.string, sha256: t.string })),
    signers: t.array(
      t.type({
        signer_id: t.string,
        action: nullable(t.keyof({ signed: null, declined: null })),
        typed_name: nullable(t.string),
        at: nullable(t.string),
      }),
    ),
  }),
  t.type({ status: t.literal('modified'), file_sha256: t.string, request_id: t.string }),
  t.type({ status: t.literal('unknown'), file_sha256: t.string }),
]);
export type VerificationView = t.TypeOf<typeof VerificationView>;
