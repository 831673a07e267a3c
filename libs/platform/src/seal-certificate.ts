import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type Forge from 'node-forge';

const require = createRequire(import.meta.url);

/**
 * node-forge, loaded on the first call rather than with the platform: no service process
 * makes a certificate (`npm start` and tests do, ADR 2505), and the requests service opens
 * a PKCS#12 seal identity with it only when one is configured (ADR 2730).
 */
export const loadForge = (): typeof Forge => require('node-forge') as typeof Forge;

/** A certificate and its key, PEM; `chainPem` is the certificate followed by its issuer's. */
export interface SealCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  readonly chainPem: string;
}

/**
 * A certificate for sealing executed documents where no CA issues one: `npm start`'s
 * local one, and tests'. Signed by `issuer` when given (a chain), else by itself.
 * Readers report such a seal's signature as valid and its issuer as not trusted.
 */
export const makeSealCertificate = (options: {
  readonly commonName: string;
  readonly days?: number;
  readonly ca?: boolean;
  readonly issuer?: SealCertificate;
  readonly now?: Date;
}): SealCertificate => {
  const forge = loadForge();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ format: 'pem', type: 'spki' }).toString());
  // A positive serial in minimal DER: the first byte 0x01-0x7f (a leading 0x00 before a
  // byte below 0x80 is padding OpenSSL rejects; a top bit set would make it negative).
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  cert.serialNumber = serial.toString('hex');
  const now = options.now ?? new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + (options.days ?? 3650) * 86_400_000);
  const subject = [
    { name: 'commonName', value: options.commonName },
    { name: 'organizationName', value: 'E-signature platform (local)' },
  ];
  cert.setSubject(subject);
  const issuerCert =
    options.issuer === undefined ? undefined : forge.pki.certificateFromPem(options.issuer.certPem);
  cert.setIssuer(issuerCert === undefined ? subject : issuerCert.subject.attributes);
  cert.setExtensions(
    options.ca === true
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
          { name: 'subjectKeyIdentifier' },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
          { name: 'subjectKeyIdentifier' },
        ],
  );
  const signingKey = forge.pki.privateKeyFromPem(options.issuer?.keyPem ?? keyPem);
  cert.sign(signingKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  return {
    certPem,
    keyPem,
    chainPem: options.issuer === undefined ? certPem : certPem + options.issuer.certPem,
  };
};

/** Where `ensureLocalSealCertificate` keeps a certificate: the settings that name it. */
export interface SealCertificateFiles {
  readonly PDF_SIGNING_CERT_FILE: string;
  readonly PDF_SIGNING_KEY_FILE: string;
}

/**
 * A self-signed seal certificate in `dir` (`seal-cert.pem`, `seal-key.pem`, the key
 * readable by its owner only), made when missing and kept after: documents sealed on this
 * machine stay sealed by the same certificate across restarts. Answers the settings that
 * name the files and whether it was just made.
 */
export const ensureLocalSealCertificate = (
  dir: string,
  commonName = 'esign local development seal (self-signed)',
): { files: SealCertificateFiles; created: boolean } => {
  const files = {
    PDF_SIGNING_CERT_FILE: join(dir, 'seal-cert.pem'),
    PDF_SIGNING_KEY_FILE: join(dir, 'seal-key.pem'),
  };
  if (existsSync(files.PDF_SIGNING_CERT_FILE) && existsSync(files.PDF_SIGNING_KEY_FILE))
    return { files, created: false };
  mkdirSync(dir, { recursive: true });
  const made = makeSealCertificate({ commonName });
  writeFileSync(files.PDF_SIGNING_KEY_FILE, made.keyPem, { mode: 0o600 });
  writeFileSync(files.PDF_SIGNING_CERT_FILE, made.chainPem);
  return { files, created: true };
};
