import * as E from 'fp-ts/lib/Either.js';
import type { MessageKey } from '@esign/contracts';
import type { AppContext } from '@esign/platform';
import type { ExecutionLink } from '../../../application/signing/verify-link.js';
import { embeddedFrameAncestors, embeddedPageOf } from './embedded-pages.js';

/**
 * What every signer route shares and holds no state: the options, the security headers,
 * reading an Execution URL's parts, the client's address and a drawn signature.
 */

export interface SigningRouteOptions {
  /** The public address Execution URLs start with; its origin is the pages' own. */
  readonly publicBaseUrl: string;
  /** CSP `frame-ancestors` sources: who may embed the signer pages (`'none'` by default). */
  readonly frameAncestors: string;
  /** Proxies in front of the service that append to X-Forwarded-For (the gateway is one). */
  readonly trustedProxyHops: number;
}

/** Paths whose bodies this module reads itself (HTML forms, not JSON). */
export const SIGNING_FORM_PATHS = [
  '/sign',
  '/sign/decline',
  '/sign/reassign',
  '/sign/verify',
  '/sign/code',
] as const;

export const FORM_LIMIT = '600kb';
const MAX_DRAWING_BYTES = 300_000;

/** The headers every signer page and file carries; `formAction` lists where its forms may go. */
export const secure = (
  ctx: AppContext,
  options: SigningRouteOptions,
  nonce: string,
  formAction: readonly string[],
) => {
  // An embedded page (ADR 2300) is framed by its Developer App's origins and nothing else.
  const embedded = embeddedPageOf(ctx);
  const ancestors =
    embedded === undefined ? options.frameAncestors : embeddedFrameAncestors(embedded.session);
  ctx.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "object-src 'self'",
      // The Site's logo (ADR 2301) and nothing else: not even a favicon is fetched.
      `img-src ${new URL('sign/logo/', options.publicBaseUrl.endsWith('/') ? options.publicBaseUrl : `${options.publicBaseUrl}/`).toString()}`,
      "frame-src 'self'",
      `form-action ${formAction.length === 0 ? "'none'" : formAction.join(' ')}`,
      `frame-ancestors ${ancestors}`,
      "base-uri 'none'",
    ].join('; '),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'X-Robots-Tag': 'noindex, nofollow',
    ...(ancestors === "'none'" ? { 'X-Frame-Options': 'DENY' } : {}),
  });
  if (ancestors !== "'none'") ctx.remove('X-Frame-Options');
};

export const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A part of a signer link: a few URL-safe characters. */
export const SANE = /^[A-Za-z0-9._~-]{1,200}$/;

/** r, s and signature as one link, or nothing when any is missing or malformed. */
export const linkOf = (get: (name: string) => string | undefined): ExecutionLink | undefined => {
  const requestId = get('r');
  const signerRef = get('s');
  const signature = get('signature');
  if ([requestId, signerRef, signature].some((v) => v === undefined || !SANE.test(v))) return undefined;
  return { requestId: requestId!, signerRef: signerRef!, signature: signature! };
};

/** The address the request came from: `hops` proxies back along X-Forwarded-For. */
export const clientIp = (ctx: AppContext, hops: number): string => {
  const socket = ctx.req.socket.remoteAddress ?? 'unknown';
  const forwarded = (ctx.get('x-forwarded-for') || '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const chain = [...forwarded, socket];
  const ip = chain[Math.max(0, chain.length - 1 - hops)]!;
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
};

/** A drawn signature as posted by the page's script: a PNG data URL of bounded size and shape. */
export const drawingOf = (raw: string | undefined): E.Either<string, Uint8Array | null> => {
  if (raw === undefined || raw === '') return E.right(null);
  const prefix = 'data:image/png;base64,';
  if (!raw.startsWith(prefix)) return E.left('is not a PNG image');
  const bytes = Buffer.from(raw.slice(prefix.length), 'base64');
  if (bytes.length > MAX_DRAWING_BYTES) return E.left('is too large');
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(magic) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return E.left('is not a PNG image');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width < 1 || height < 1 || width > 4000 || height > 2000) return E.left('has an unusual size');
  return E.right(new Uint8Array(bytes));
};

/** What `drawingOf` says is wrong with a drawing, as the page says it (ADR 2320). */
export const DRAWING_PROBLEMS: Readonly<Record<string, MessageKey>> = {
  'is not a PNG image': 'drawing.notPng',
  'is too large': 'drawing.tooLarge',
  'has an unusual size': 'drawing.oddSize',
};
