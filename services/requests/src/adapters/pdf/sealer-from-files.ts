import { readFileSync } from 'node:fs';
import type { DocumentSealer } from '../../ports/document-sealer.js';
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

/** The seal of executed documents as configured, or null when no certificate is configured. */
export const sealerFromFiles = (files: SealerFiles): DocumentSealer | null => {
  const loaded = identity(files);
  return loaded === null
    ? null
    : lazyPadesSealer(loaded, files.tsaUrl === '' ? {} : { tsaUrl: files.tsaUrl });
};
