import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { loadForge } from '@esign/platform';

/** The certificate chain (signer first) and private key that seal executed documents. */
export interface SigningIdentity {
  readonly key: KeyObject;
  /** DER certificates: the signer's first, then its issuers as far as given. */
  readonly chain: readonly Buffer[];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The signer's certificate is the one whose public key is the private key's. */
const orderChain = (key: KeyObject, certificates: readonly X509Certificate[]): Buffer[] => {
  const leaf = certificates.find((c) => c.checkPrivateKey(key));
  if (leaf === undefined) throw new Error('no certificate matches the private key');
  return [leaf, ...certificates.filter((c) => c !== leaf)].map((c) => c.raw);
};

const usable = (key: KeyObject): KeyObject => {
  if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec')
    throw new Error(`the key is ${key.asymmetricKeyType ?? 'not asymmetric'}: use an RSA or EC key`);
  return key;
};

/** PEM: one or more certificates (signer and chain, any order) and a PKCS#8 or PKCS#1/SEC1 key. */
export const identityFromPem = (
  certificatesPem: string,
  keyPem: string,
  passphrase?: string,
): SigningIdentity => {
  const certificates = (certificatesPem.match(PEM_CERTIFICATE) ?? []).map((pem) => new X509Certificate(pem));
  if (certificates.length === 0) throw new Error('no PEM certificate found');
  const key = usable(createPrivateKey({ key: keyPem, format: 'pem', passphrase }));
  return { key, chain: orderChain(key, certificates) };
};

/**
 * PKCS#12 (a .p12/.pfx file's bytes) with its passphrase. node:crypto cannot open one, so
 * node-forge is loaded here, on the call: with a PEM identity the service never holds its
 * 2 MB of heap (ADR 2730).
 */
export const identityFromPkcs12 = (p12: Uint8Array, passphrase: string): SigningIdentity => {
  const forge = loadForge();
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary')));
  const pfx = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
  const keyBags = [
    ...(pfx.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ??
      []),
    ...(pfx.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ];
  const forgeKey = keyBags[0]?.key;
  if (forgeKey === undefined) throw new Error('the PKCS#12 file holds no private key');
  const certificates = (
    pfx.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []
  ).flatMap((bag) =>
    bag.cert === undefined ? [] : [new X509Certificate(forge.pki.certificateToPem(bag.cert))],
  );
  if (certificates.length === 0) throw new Error('the PKCS#12 file holds no certificate');
  const key = usable(createPrivateKey(forge.pki.privateKeyToPem(forgeKey)));
  return { key, chain: orderChain(key, certificates) };
};
