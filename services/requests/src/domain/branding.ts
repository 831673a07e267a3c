import * as E from 'fp-ts/lib/Either.js';
import { MAX_LOGO_BYTES, MAX_LOGO_SIDE } from '@esign/contracts';

/** A Site's branding as the signer side applies it (ADR 2301). */
export interface SiteBranding {
  readonly siteId: number;
  /** Shown instead of the Site's name; null: the Site's name. */
  readonly displayName: string | null;
  readonly accentColor: string | null;
  readonly replyTo: string | null;
  readonly emailFooter: string | null;
  /** The PNG's SHA-256 (hex), naming it in its public URL; null: no logo. */
  readonly logoSha256: string | null;
  readonly updatedAt: string;
}

export interface Logo {
  readonly png: Uint8Array;
  readonly sha256: string;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A logo must be a PNG (signature, then an IHDR chunk) within the size limits; answers
 * its width and height, or why it is refused. The bytes are served as they are, always
 * as `image/png` with `nosniff`, so what is not a PNG is refused rather than repaired.
 */
export const checkLogo = (png: Uint8Array): E.Either<string, { width: number; height: number }> => {
  if (png.length > MAX_LOGO_BYTES) return E.left(`must be at most ${MAX_LOGO_BYTES / 1000} kB`);
  if (png.length < 33 || PNG_MAGIC.some((b, i) => png[i] !== b)) return E.left('is not a PNG image');
  const type = String.fromCharCode(png[12]!, png[13]!, png[14]!, png[15]!);
  if (type !== 'IHDR') return E.left('is not a PNG image');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width < 1 || height < 1 || width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE)
    return E.left(`must be at most ${MAX_LOGO_SIDE} × ${MAX_LOGO_SIDE} pixels`);
  return E.right({ width, height });
};

/** The public path of a Site's logo: content-addressed, so it may be cached for ever. */
export const logoPath = (siteId: number, sha256: string): string => `sign/logo/${siteId}/${sha256}.png`;
