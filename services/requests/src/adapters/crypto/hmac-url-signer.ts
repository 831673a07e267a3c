import { createHmac, timingSafeEqual } from 'node:crypto';
import type { UrlSigner } from '../../ports/url-signer.js';

export interface SigningKey {
  readonly id: string;
  readonly secret: string;
}

const mac = (secret: string, requestId: string, signerRef: string): Buffer =>
  // Neither part can hold a newline, so the message names exactly one pair.
  createHmac('sha256', secret).update(`esign-execution-url\n${requestId}\n${signerRef}`).digest();

/**
 * HMAC-SHA256 signatures of the form `<key id>.<base64url mac>`. The first key signs;
 * every key verifies, so a new key can be put first while URLs signed with the old one
 * keep working until it is removed.
 */
export const hmacUrlSigner = (keys: readonly SigningKey[]): UrlSigner => {
  const [current] = keys;
  if (current === undefined) throw new Error('at least one URL signing key is required');
  const byId = new Map(keys.map((k) => [k.id, k.secret]));
  return {
    sign: (requestId, signerRef) =>
      `${current.id}.${mac(current.secret, requestId, signerRef).toString('base64url')}`,
    verify: (requestId, signerRef, signature) => {
      const dot = signature.indexOf('.');
      if (dot <= 0) return false;
      const secret = byId.get(signature.slice(0, dot));
      if (secret === undefined) return false;
      // Compared as text: base64url decoding ignores stray characters, the text does not.
      const given = Buffer.from(signature.slice(dot + 1), 'utf8');
      const expected = Buffer.from(mac(secret, requestId, signerRef).toString('base64url'), 'utf8');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
};
