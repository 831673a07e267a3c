import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FormTokens } from '../../ports/form-tokens.js';
import type { SigningKey } from './hmac-url-signer.js';

const mac = (secret: string, issuedAt: number, binding: string): string =>
  // A label of its own, so a form token can never be mistaken for an Execution URL signature.
  createHmac('sha256', secret).update(`esign-signer-form\n${issuedAt}\n${binding}`).digest('base64url');

const TOKEN = /^([A-Za-z0-9_-]{1,32})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * `<key id>.<issued at, unix seconds>.<HMAC-SHA256>` over the binding, with the URL
 * signing keys (first signs, all verify, as for Execution URLs). Valid for `ttlSeconds`
 * after issue, and not from the future beyond a minute of clock skew between replicas.
 */
export const hmacFormTokens = (keys: readonly SigningKey[], ttlSeconds: number): FormTokens => {
  const [current] = keys;
  if (current === undefined) throw new Error('at least one signing key is required');
  const byId = new Map(keys.map((k) => [k.id, k.secret]));
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  return {
    issue: (binding, now) => {
      const issuedAt = seconds(now);
      return `${current.id}.${issuedAt}.${mac(current.secret, issuedAt, binding)}`;
    },
    verify: (binding, token, now) => {
      const parts = TOKEN.exec(token);
      if (parts === null) return 'invalid';
      const secret = byId.get(parts[1]!);
      if (secret === undefined) return 'invalid';
      const issuedAt = Number(parts[2]);
      const given = Buffer.from(parts[3]!, 'utf8');
      const expected = Buffer.from(mac(secret, issuedAt, binding), 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      const age = seconds(now) - issuedAt;
      if (age < -60) return 'invalid';
      return age > ttlSeconds ? 'expired' : 'valid';
    },
  };
};
