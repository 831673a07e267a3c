import { createHmac, timingSafeEqual } from 'node:crypto';
import type { UrlSigner } from '../../ports/url-signer.js';

export interface SigningKey {
  readonly id: string;
  readonly secret: string;
}

// No part can hold a newline, so the message names exactly one link. Version 0 keeps
// the message URLs had before links were versioned, so those sent before still verify.
const mac = (secret: string, requestId: string, signerRef: string, version: number): Buffer =>
  createHmac('sha256', secret)
    .update(
      version === 0
        ? `esign-execution-url\n${requestId}\n${signerRef}`
        : `esign-execution-url\n${requestId}\n${signerRef}\n${version}`,
    )
    .digest();

const VERSION = /^[1-9][0-9]{0,8}$/;

/**
 * HMAC-SHA256 signatures of the form `<key id>.<base64url mac>` for a signer's first
 * link, `<key id>.<version>.<base64url mac>` for a reissued one (ADR 0204, 1321). The
 * first key signs; every key verifies, so a new key can be put first while URLs signed
 * with the old one keep working until it is removed.
 */
export const hmacUrlSigner = (keys: readonly SigningKey[]): UrlSigner => {
  const [current] = keys;
  if (current === undefined) throw new Error('at least one URL signing key is required');
  const byId = new Map(keys.map((k) => [k.id, k.secret]));
  return {
    sign: (requestId, signerRef, version = 0) => {
      const text = mac(current.secret, requestId, signerRef, version).toString('base64url');
      return version === 0 ? `${current.id}.${text}` : `${current.id}.${version}.${text}`;
    },
    verify: (requestId, signerRef, signature) => {
      const parts = signature.split('.');
      if (parts.length !== 2 && parts.length !== 3) return false;
      const [kid, ...rest] = parts;
      const secret = byId.get(kid ?? '');
      if (secret === undefined || kid === '') return false;
      if (rest.length === 2 && !VERSION.test(rest[0]!)) return false;
      const version = rest.length === 2 ? Number(rest[0]) : 0;
      // Compared as text: base64url decoding ignores stray characters, the text does not.
      const given = Buffer.from(rest[rest.length - 1]!, 'utf8');
      const expected = Buffer.from(mac(secret, requestId, signerRef, version).toString('base64url'), 'utf8');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    versionOf: (signature) => {
      const parts = signature.split('.');
      return parts.length === 3 && VERSION.test(parts[1]!) ? Number(parts[1]) : 0;
    },
  };
};
