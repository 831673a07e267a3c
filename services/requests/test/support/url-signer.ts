import type { UrlSigner } from '../../src/ports/url-signer.js';

/**
 * A URL signer whose signatures name what they sign (`k1.<version>.sig/<signer ref>`, not
 * verifiable), and which lists each link it was asked to sign as `<request> <signer ref> <version>`.
 */
export const countingUrlSigner = () => {
  const signed: string[] = [];
  const signer: UrlSigner = {
    sign: (requestId, signerRef, version = 0) => {
      signed.push(`${requestId} ${signerRef} ${version}`);
      return `k1.${version}.sig/${signerRef}`;
    },
    verify: () => false,
    versionOf: (signature) => Number(signature.split('.')[1] ?? 0),
  };
  return { signer, signed };
};
