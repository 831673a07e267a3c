import { onFirstUse } from '@esign/platform';
import { SealCertificateOutOfDate, type DocumentSealer } from '../../ports/document-sealer.js';
import type { PadesOptions } from './pades-sealer.js';
import type { SigningIdentity } from './signing-identity.js';

/**
 * The PAdES sealer, loaded on the first document it seals rather than at start: pkijs,
 * asn1js and @signpdf hold about 3 MB of live heap, and creates, reads and sends never
 * seal (ADR 2720). The signing identity is read and checked at start as before, so a bad
 * certificate still stops the service there (ADR 2100). A failed load is tried again on
 * the next seal. A certificate that is not valid at the signing time seals nothing: such
 * a seal would not validate.
 */
export const lazyPadesSealer = (identity: SigningIdentity, options: PadesOptions): DocumentSealer => {
  const sealer = onFirstUse(() => import('./pades-sealer.js').then((m) => m.padesSealer(identity, options)));
  const { notBefore, notAfter } = identity.validity;
  return {
    seal: (pdf, details) => async () => {
      const at = details.signingTime.getTime();
      if (at > notAfter.getTime())
        throw new SealCertificateOutOfDate(`the seal's certificate expired on ${notAfter.toISOString()}`);
      if (at < notBefore.getTime())
        throw new SealCertificateOutOfDate(
          `the seal's certificate is valid from ${notBefore.toISOString()} only`,
        );
      return (await sealer()).seal(pdf, details)();
    },
    validity: identity.validity,
  };
};
