import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { Deps } from '../../src/application/deps.js';
import {
  executionAccess,
  type ExecutionRefusal,
  type RequestSigner,
  type SignatureRequest,
} from '../../src/domain/signature-request.js';

type LinkCheck = E.Either<
  { readonly _tag: 'InvalidSignature' } | { readonly _tag: 'NoSuchRequest' } | ExecutionRefusal,
  { readonly request: SignatureRequest; readonly signer: RequestSigner }
>;

/**
 * Whether a signer's Execution URL opens now, by the rules the signer pages apply: its
 * signature, then the Request's liveness (`executionAccess`). Lets lifecycle tests check
 * what send, cancel and expiry do to the links without rendering a page.
 */
export const openExecutionLink = async (
  deps: Pick<Deps, 'store' | 'urlSigner' | 'clock' | 'linkLifetimeMs'>,
  requestUrl: string,
): Promise<LinkCheck> => {
  const url = new URL(requestUrl);
  const [requestId, signerRef, signature] = ['r', 's', 'signature'].map((k) => url.searchParams.get(k) ?? '');
  if (!deps.urlSigner.verify(requestId!, signerRef!, signature!)) return E.left({ _tag: 'InvalidSignature' });
  const found = await deps.store.requests.findByVerifiedId(requestId!)();
  if (E.isLeft(found) || O.isNone(found.right)) return E.left({ _tag: 'NoSuchRequest' });
  const request = found.right.value;
  return E.map((signer: RequestSigner) => ({ request, signer }))(
    executionAccess(
      request,
      { signerRef: signerRef!, version: deps.urlSigner.versionOf(signature!) },
      isoNow(deps.clock),
      deps.linkLifetimeMs,
    ),
  );
};
