import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { loadForge } from '@esign/platform';
import type { CertificateValidity } from '../../ports/document-sealer.js';

/** The certificate chain (signer first) and private key that seal executed documents. */
export interface SigningIdentity {
  readonly key: KeyObject;
  /** DER certificates: the signer's first, then its issuers as far as given. */
  readonly chain: readonly Buffer[];
  /** When the signer's certificate is valid. */
  readonly validity: CertificateValidity;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The signer's certificate is the one whose public key is the private key's. */
const identityOf = (key: KeyObject, certificates: readonly X509Certificate[]): SigningIdentity => {
  const leaf = certificates.find((c) => c.checkPrivateKey(key));
  if (leaf === undefined) throw new Error('no certificate matches the private key');
  return {
    key,
    chain: [leaf, ...certificates.filter((c) => c !== leaf)].map((c) => c.raw),
    validity: { notBefore: new Date(leaf.validFrom), notAfter: new Date(leaf.validTo) },
  };
};

/** The curves a seal may use, by OpenSSL's name, with WebCrypto's name and the hash the seal signs. */
export const SEAL_CURVES: Readonly<Record<string, { readonly namedCurve: string; readonly hash: string }>> = {
  prime256v1: { namedCurve: 'P-256', hash: 'SHA-256' },
  secp384r1: { namedCurve: 'P-384', hash: 'SHA-384' },
  secp521r1: { namedCurve: 'P-521', hash: 'SHA-384' },
};

/** Refused here, at start, rather than at the first seal: a key the seal cannot sign with. */
const usable = (key: KeyObject): KeyObject => {
  if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec')
    throw new Error(`the key is ${key.asymmetricKeyType ?? 'not asymmetric'}: use an RSA or EC key`);
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType === 'ec' && (curve === undefined || !Object.hasOwn(SEAL_CURVES, curve)))
    throw new Error(`the key is EC on ${curve ?? 'an unnamed curve'}: use P-256, P-384 or P-521`);
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
  return identityOf(key, certificates);
};

/**
 * PKCS#12 (a .p12/.pfx file's bytes) with its passphrase. node:crypto cannot open one, so
 * node-forge is loaded here, on the call: with a PEM identity the service never holds its
 * 2 MB of heap (ADR 2730). forge only decrypts the file: the key and the certificates go
 * to node:crypto as DER, since forge itself reads neither EC keys and certificates nor
 * RSA keys of more than two primes (it keeps those bags' ASN.1 instead).
 */
export const identityFromPkcs12 = (p12: Uint8Array, passphrase: string): SigningIdentity => {
  const forge = loadForge();
  const der = (asn1: Parameters<typeof forge.asn1.toDer>[0]): Buffer =>
    Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary')));
  const pfx = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
  const bagsOf = (type: string | undefined) =>
    type === undefined ? [] : (pfx.getBags({ bagType: type })[type] ?? []);
  const keyBag = [...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag), ...bagsOf(forge.pki.oids.keyBag)].find(
    (bag) => bag.key != null || bag.asn1 != null,
  );
  if (keyBag === undefined) throw new Error('the PKCS#12 file holds no private key');
  const keyInfo =
    keyBag.key != null ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keyBag.key)) : keyBag.asn1;
  const certificates = bagsOf(forge.pki.oids.certBag).flatMap((bag) => {
    const certificate = bag.cert != null ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1;
    return certificate == null ? [] : [new X509Certificate(der(certificate))];
  });
  if (certificates.length === 0) throw new Error('the PKCS#12 file holds no certificate');
  const key = usable(createPrivateKey({ key: der(keyInfo), format: 'der', type: 'pkcs8' }));
  return identityOf(key, certificates);
};

/** How long before its certificate expires the service starts warning, at each start. */
const SEAL_EXPIRY_WARNING_DAYS = 30;

/**
 * What to tell an operator at start about the seal's certificate: out of date (nothing is
 * sealed until it is replaced), or expiring within `SEAL_EXPIRY_WARNING_DAYS`; undefined
 * when it is fine.
 */
export const sealValidityWarning = (validity: CertificateValidity, now: Date): string | undefined => {
  const DAY = 86_400_000;
  if (now > validity.notAfter)
    return `the seal's certificate expired on ${validity.notAfter.toISOString()}: executed documents are not issued until another is configured`;
  if (now < validity.notBefore)
    return `the seal's certificate is valid from ${validity.notBefore.toISOString()} only: executed documents are not issued until then`;
  const days = Math.floor((validity.notAfter.getTime() - now.getTime()) / DAY);
  return days < SEAL_EXPIRY_WARNING_DAYS
    ? `the seal's certificate expires on ${validity.notAfter.toISOString()}, in ${days} days: configure its successor`
    : undefined;
};
