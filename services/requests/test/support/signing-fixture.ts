import { signingUseCases } from '../../src/application/use-cases.js';
import type { SignatureRequest } from '../../src/domain/signature-request.js';
import { htmlSpec, NOW } from './builders.js';
import type { fakeDeps } from './fakes.js';

/**
 * A sent Request in the fake store with its one HTML template (id 11, "Hello
 * {{client_name}}"): the signer use cases bound to the fakes, and each signer's link.
 */
export const signingFixture = ({ deps, memory }: ReturnType<typeof fakeDeps>, request: SignatureRequest) => {
  memory.state().templates.set(11, {
    ...htmlSpec(),
    html: '<p>Hello {{client_name}}</p>',
    document: { sizeBytes: 27, sha256: '0'.repeat(64) },
    createdAt: NOW,
    updatedAt: NOW,
    publishedAt: NOW,
  });
  memory.state().requests.set(request.id, request);
  const link = (ref: string) => ({
    requestId: request.id,
    signerRef: ref,
    signature: deps.urlSigner.sign(request.id, ref),
  });
  return { cases: signingUseCases(deps), link };
};
