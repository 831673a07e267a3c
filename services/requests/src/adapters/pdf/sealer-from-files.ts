import { readFileSync, statSync } from 'node:fs';
import type { CertificateValidity, DocumentSealer } from '../../ports/document-sealer.js';
import { lazyPadesSealer } from './lazy-pades-sealer.js';
import { identityFromPem, identityFromPkcs12, type SigningIdentity } from './signing-identity.js';

export interface SealerFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly p12File: string;
  readonly passphrase: string;
  readonly tsaUrl: string;
}

const read = (variable: string, path: string): Buffer => {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path} (${(error as Error).message})`);
  }
};

const identity = (files: SealerFiles): SigningIdentity | null => {
  if (files.p12File !== '') {
    if (files.certFile !== '' || files.keyFile !== '')
      throw new Error(
        'PDF_SIGNING_P12_FILE: set it, or PDF_SIGNING_CERT_FILE and PDF_SIGNING_KEY_FILE, not both',
      );
    try {
      return identityFromPkcs12(read('PDF_SIGNING_P12_FILE', files.p12File), files.passphrase);
    } catch (error) {
      throw new Error(`PDF_SIGNING_P12_FILE: ${(error as Error).message}`);
    }
  }
  if (files.certFile === '' && files.keyFile === '') return null;
  if (files.certFile === '' || files.keyFile === '')
    throw new Error('PDF_SIGNING_CERT_FILE and PDF_SIGNING_KEY_FILE go together: set both');
  try {
    return identityFromPem(
      read('PDF_SIGNING_CERT_FILE', files.certFile).toString('utf8'),
      read('PDF_SIGNING_KEY_FILE', files.keyFile).toString('utf8'),
      files.passphrase === '' ? undefined : files.passphrase,
    );
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(
      message.startsWith('PDF_SIGNING_') ? message : `PDF_SIGNING_CERT_FILE/PDF_SIGNING_KEY_FILE: ${message}`,
    );
  }
};

/** What became of files that changed under a running sealer. */
export type SealFilesChange =
  | { readonly _tag: 'Reloaded'; readonly validity: CertificateValidity }
  /** They could not be read as a seal: the sealer goes on with the certificate it had. */
  | { readonly _tag: 'Refused'; readonly reason: string };

/** When and how large each configured file is now: changes when any of them is replaced. */
const stampOf = (files: SealerFiles): string =>
  [files.certFile, files.keyFile, files.p12File]
    .map((path) => {
      if (path === '') return '';
      try {
        const { mtimeMs, size, ino } = statSync(path);
        return `${mtimeMs}:${size}:${ino}`;
      } catch {
        return 'missing';
      }
    })
    .join('|');

/**
 * The seal of executed documents as configured, or null when no certificate is configured.
 * The files are read again when they change (Kubernetes updates a mounted Secret in place,
 * and cert-manager renews one before it expires), looked at before each seal and each
 * read of the certificate's validity (the metric's scrape): a renewed certificate is used
 * without a restart. Files that change into something unreadable are reported once, and
 * the sealer keeps the certificate it had.
 */
export const sealerFromFiles = (
  files: SealerFiles,
  onChange: (change: SealFilesChange) => void = () => undefined,
): DocumentSealer | null => {
  const loaded = identity(files);
  if (loaded === null) return null;
  const options = files.tsaUrl === '' ? {} : { tsaUrl: files.tsaUrl };
  let current = { stamp: stampOf(files), sealer: lazyPadesSealer(loaded, options) };
  let refused: string | undefined;
  const refresh = () => {
    const stamp = stampOf(files);
    if (stamp === current.stamp || stamp === refused) return current.sealer;
    try {
      const next = identity(files);
      if (next !== null) {
        current = { stamp, sealer: lazyPadesSealer(next, options) };
        onChange({ _tag: 'Reloaded', validity: next.validity });
      }
    } catch (error) {
      refused = stamp;
      onChange({ _tag: 'Refused', reason: (error as Error).message });
    }
    return current.sealer;
  };
  return {
    seal: (pdf, details) => () => refresh().seal(pdf, details)(),
    get validity() {
      return refresh().validity;
    },
  };
};
