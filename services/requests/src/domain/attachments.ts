import * as E from 'fp-ts/lib/Either.js';
import { ATTACHMENT_LIMITS, type AttachmentType } from '@esign/contracts';
import { kindOf, type TypedField } from './document.js';

// The files signers upload for a Request's attachment fields (ADR 3920): what one may be,
// and what its name is kept as.

/** A file a signing form brought for the field at `index`, as read off the wire. */
export interface Upload {
  readonly index: number;
  /** The name the signer's device gave it. */
  readonly fileName: string;
  readonly bytes: Uint8Array;
  /** Whether it was longer than the limit and cut there. */
  readonly truncated: boolean;
}

/** An upload fit to keep: its name cleaned, its type from its first bytes. */
export interface AcceptedUpload {
  readonly fileName: string;
  readonly contentType: AttachmentType;
  readonly bytes: Uint8Array;
}

/** Each type by its first bytes: `%PDF-`, PNG's eight-byte signature, JPEG's start of image. */
const SIGNATURES: readonly (readonly [AttachmentType, readonly number[]])[] = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
];

const EXTENSION: Readonly<Record<AttachmentType, string>> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
};

/** What the file is by its first bytes, whatever its name or the browser says. */
export const sniffType = (bytes: Uint8Array): AttachmentType | undefined =>
  SIGNATURES.find(([, signature]) => signature.every((b, i) => bytes[i] === b))?.[0];

// Control characters, and the characters Windows refuses in a name, which a download would trip on.
const UNSAFE = /[\u0000-\u001f\u007f"*:<>?|]/g;

/**
 * The name a file is kept and shown as: its last path segment (some browsers send the whole
 * path), without control characters or characters a download's name cannot hold, at most
 * 200 characters with its extension kept; `attachment.pdf` (or .png, .jpg) when nothing is left.
 */
export const keptFileName = (given: string, type: AttachmentType): string => {
  const base = (given.split(/[\\/]/).pop() ?? '').replace(UNSAFE, '').replace(/\s+/g, ' ').trim();
  const chars = [...base];
  if (chars.length === 0 || /^\.+$/.test(base)) return `attachment.${EXTENSION[type]}`;
  if (chars.length <= ATTACHMENT_LIMITS.fileName) return base;
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 && base.length - dot <= 10 ? [...base.slice(dot)] : [];
  return chars.slice(0, ATTACHMENT_LIMITS.fileName - extension.length).join('') + extension.join('');
};

/** An upload checked: a PDF, PNG or JPEG of at most 10 MiB, not empty; or why not, in the signer's words. */
export const acceptUpload = (upload: Upload): E.Either<string, AcceptedUpload> => {
  if (upload.truncated || upload.bytes.length > ATTACHMENT_LIMITS.bytes)
    return E.left('must be at most 10 MB');
  if (upload.bytes.length === 0) return E.left('is an empty file: choose it again');
  const contentType = sniffType(upload.bytes);
  if (contentType === undefined) return E.left('must be a PDF, PNG or JPEG file');
  return E.right({ fileName: keptFileName(upload.fileName, contentType), contentType, bytes: upload.bytes });
};

/** The signer's attachment fields among those they fill in. */
export const attachmentFields = (mine: readonly TypedField[]): TypedField[] =>
  mine.filter((f) => kindOf(f) === 'attachment');
