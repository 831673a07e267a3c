import { onFirstUse } from '@esign/platform';
import type { DocumentSealer } from '../../ports/document-sealer.js';
import type { PadesOptions } from './pades-sealer.js';
import type { SigningIdentity } from './signing-identity.js';

/**
 * The PAdES sealer, loaded on the first document it seals rather than at start: pkijs,
 * asn1js and @signpdf hold about 3 MB of live heap, and creates, reads and sends never
 * seal (ADR 2720). The signing identity is read and checked at start as before, so a bad
 * certificate still stops the service there (ADR 2100). A failed load is tried again on
 * the next seal.
 */
export const lazyPadesSealer = (identity: SigningIdentity, options: PadesOptions): DocumentSealer => {
  const sealer = onFirstUse(() => import('./pades-sealer.js').then((m) => m.padesSealer(identity, options)));
  return { seal: (pdf, details) => async () => (await sealer()).seal(pdf, details)() };
};
