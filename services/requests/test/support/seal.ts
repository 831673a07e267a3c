import { identityFromPem } from '../../src/adapters/pdf/signing-identity.js';
import { padesSealer, type PadesOptions } from '../../src/adapters/pdf/pades-sealer.js';
import { makeSealCertificate, type SealCertificate } from '@esign/platform';
import type { DocumentSealer } from '../../src/ports/document-sealer.js';

let shared: SealCertificate | undefined;

/** One test certificate per process: a leaf issued by a test CA, so the seal carries a chain. */
export const testSealCertificate = (): SealCertificate => {
  if (shared === undefined) {
    const ca = makeSealCertificate({ commonName: 'esign test CA', ca: true });
    shared = makeSealCertificate({ commonName: 'esign test seal', issuer: ca });
  }
  return shared;
};

export const sealerOf = (certificate: SealCertificate, options: PadesOptions = {}): DocumentSealer =>
  padesSealer(identityFromPem(certificate.chainPem, certificate.keyPem), options);

export const testSealer = (options: PadesOptions = {}): DocumentSealer =>
  sealerOf(testSealCertificate(), options);
