import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { boundedArray, refine, strict, transform } from './primitives.js';

/**
 * Embedded signing (issue 23, ADR 2300): a Developer App lists the origins that may frame
 * the signing page; a token of that app asks for a single-use, short-lived URL for one
 * signer; the page posts its events to the one origin the URL was made for.
 */

/** The most origins one app may list: a site and its staging copies, not a directory. */
export const MAX_FRAME_ORIGINS = 10;

/** How long an embedded signing URL opens, and that it opens once. */
export const EMBEDDED_URL_LIFETIME_SECONDS = 300;

/**
 * A web origin as a browser serialises it (`https://host` or `https://host:8443`): what
 * CSP `frame-ancestors` and `postMessage` compare exactly. No path, wildcard or credentials.
 */
export const parseWebOrigin = (s: string): E.Either<string, string> => {
  if (s.length > 300) return E.left('must be at most 300 characters');
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return E.left('must be an origin such as https://app.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return E.left('must use http or https');
  if (url.origin !== s)
    return E.left('must be an origin only (scheme, host and port), such as https://app.example.com');
  return E.right(url.origin);
};

export const WebOrigin = transform(
  t.string,
  parseWebOrigin,
  (s) => s,
  (u): u is string => typeof u === 'string' && E.isRight(parseWebOrigin(u)),
  'WebOrigin',
  {
    type: 'string',
    format: 'uri',
    maxLength: 300,
    description: 'A web origin: scheme, host and optional port, no path (https://app.example.com).',
  },
);

export const FrameOrigins = refine(
  boundedArray(WebOrigin, MAX_FRAME_ORIGINS, 'FrameOriginList'),
  (list): list is string[] => new Set(list).size === list.length,
  'must not name an origin twice',
  'FrameOrigins',
);

/** `PUT /v1.1/apps/:id/frame_origins`: replaces the list (empty: the app's pages cannot be framed). */
export const FrameOriginsBody = strict({ allowed_frame_origins: FrameOrigins }, {}, 'FrameOriginsBody');
export type FrameOriginsBody = t.TypeOf<typeof FrameOriginsBody>;

export const FrameOriginsView = t.type({
  app_id: t.string,
  /** The origins that may frame the signing page opened by an embedded URL of this app's tokens. */
  allowed_frame_origins: t.array(t.string),
});
export type FrameOriginsView = t.TypeOf<typeof FrameOriginsView>;

/**
 * `POST /v1.1/requests/:id/signers/:signer_id/embedded_url`: `parent_origin` is the origin
 * of the host page the events are posted to; one of the app's `allowed_frame_origins`,
 * and may be left out when the app lists exactly one.
 */
export const EmbeddedUrlBody = strict({}, { parent_origin: WebOrigin }, 'EmbeddedUrlBody');
export type EmbeddedUrlBody = t.TypeOf<typeof EmbeddedUrlBody>;

export const EmbeddedUrlView = t.type({
  /** Opens once, within `expires_at`; load it in an iframe on `parent_origin`. */
  embedded_url: t.string,
  expires_at: t.string,
  parent_origin: t.string,
  request_id: t.string,
  signer_id: t.string,
});
export type EmbeddedUrlView = t.TypeOf<typeof EmbeddedUrlView>;

/** What the framed page tells its host, in this order of a signer's visit. */
export const EMBEDDED_EVENTS = ['ready', 'viewed', 'signed', 'declined', 'error'] as const;
export type EmbeddedEvent = (typeof EMBEDDED_EVENTS)[number];

/** The `data` of every message the page posts (`source` tells it from other frames' messages). */
export interface EmbeddedSigningMessage {
  readonly source: 'esign';
  readonly event: EmbeddedEvent;
  readonly request_id: string;
  readonly signer_id: string;
  /** For `error`: a short machine code (`link_used`, `link_expired`, `refused`) and the page's title. */
  readonly code?: string;
  readonly message?: string;
}
