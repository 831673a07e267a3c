import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { transform } from '@esign/contracts';

/**
 * Seals secrets at rest (auth's signing keys, the notifier's webhook secrets) with
 * AES-256-GCM under keys from `KEY_ENCRYPTION_KEYS` (`id:secret[,id:secret…]`). The first
 * seals; every one listed can open, so the encryption key can be changed without
 * downtime (add a new first one, restart, re-seal, later drop the old one). The
 * additional data binds a sealed value to what it belongs to (a kid, an endpoint id).
 * Each use derives its own AES keys (`domain`), so one secret listed for two purposes
 * never yields the same key twice.
 */
export interface KeyEncryption {
  readonly currentId: string;
  readonly seal: (plaintext: Uint8Array, associated: string) => Uint8Array;
  /** Throws when the key id is unknown or the data was tampered with. */
  readonly open: (encryptionKeyId: string, sealed: Uint8Array, associated: string) => Buffer;
}

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class KeyEncryptionError extends Error {
  override readonly name = 'KeyEncryptionError';
  constructor(
    message: string,
    /** The key-encryption key the sealed data names, when that is what failed. */
    readonly encryptionKeyId?: string,
  ) {
    super(message);
  }
}

/** Parses `id:secret,id:secret`; secrets of at least 32 characters, ids unique. */
export const parseKeyEncryptionKeys = (value: string): Array<{ id: string; secret: string }> | string => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) return 'must list at least one id:secret';
  const keys: Array<{ id: string; secret: string }> = [];
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const id = entry.slice(0, colon);
    const secret = entry.slice(colon + 1);
    if (colon < 1 || !/^[A-Za-z0-9_-]{1,32}$/.test(id))
      return 'must be id:secret pairs separated by commas (id: letters, digits, _ or -)';
    if (secret.length < 32) return `secret of ${id} must be at least 32 characters`;
    if (keys.some((k) => k.id === id)) return `lists ${id} twice`;
    keys.push({ id, secret });
  }
  return keys;
};

/** `KEY_ENCRYPTION_KEYS` as the services read it. */
export const KeyEncryptionKeysFromEnv = transform(
  t.string,
  (s) => {
    const parsed = parseKeyEncryptionKeys(s);
    return typeof parsed === 'string' ? E.left(parsed) : E.right(parsed);
  },
  (keys) => keys.map((k) => `${k.id}:${k.secret}`).join(','),
  (u): u is Array<{ id: string; secret: string }> => Array.isArray(u),
  'KeyEncryptionKeys',
);

/** Where a sealing key is used: the HKDF salt and the prefix of its info. */
export interface KeyEncryptionDomain {
  readonly salt: string;
  readonly purpose: string;
}

/** Auth's signing keys (the values sealed before this was shared keep opening). */
export const SIGNING_KEY_ENCRYPTION: KeyEncryptionDomain = {
  salt: 'esign-auth',
  purpose: 'signing-key-encryption',
};

export const keyEncryption = (
  keys: ReadonlyArray<{ id: string; secret: string }>,
  domain: KeyEncryptionDomain,
): KeyEncryption => {
  if (keys.length === 0) throw new KeyEncryptionError('no key encryption keys');
  const derived = new Map(
    keys.map(({ id, secret }) => [
      id,
      Buffer.from(hkdfSync('sha256', secret, domain.salt, `${domain.purpose}:${id}`, 32)),
    ]),
  );
  const keyOf = (id: string) => {
    const key = derived.get(id);
    if (key === undefined)
      throw new KeyEncryptionError(`key encryption key "${id}" is not in KEY_ENCRYPTION_KEYS`, id);
    return key;
  };
  const currentId = keys[0]!.id;
  return {
    currentId,
    seal: (plaintext, associated) => {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyOf(currentId), nonce);
      cipher.setAAD(Buffer.from(associated, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), nonce, body, cipher.getAuthTag()]);
    },
    open: (encryptionKeyId, sealed, associated) => {
      const data = Buffer.from(sealed);
      if (data.length < 1 + NONCE_BYTES + TAG_BYTES || data[0] !== VERSION)
        throw new KeyEncryptionError('sealed key has an unknown format');
      const nonce = data.subarray(1, 1 + NONCE_BYTES);
      const tag = data.subarray(data.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', keyOf(encryptionKeyId), nonce);
      decipher.setAAD(Buffer.from(associated, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([
          decipher.update(data.subarray(1 + NONCE_BYTES, data.length - TAG_BYTES)),
          decipher.final(),
        ]);
      } catch {
        throw new KeyEncryptionError(
          `sealed key could not be opened with "${encryptionKeyId}" (wrong secret or tampered)`,
          encryptionKeyId,
        );
      }
    },
  };
};

const SEALED_PREFIX = 'sealed:';
const SEALED_TEXT = /^sealed:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]+)$/;

/**
 * Short secrets kept in a text column: `sealed:<key id>:<base64url>`. `open` also takes
 * a value written before sealing began (plain text), so rows can be re-sealed after the
 * code that reads them is deployed; `isSealed` finds those still to do.
 */
export interface TextSealer {
  readonly seal: (plaintext: string, associated: string) => string;
  readonly open: (stored: string, associated: string) => string;
  readonly isSealed: (stored: string) => boolean;
}

export const textSealer = (encryption: KeyEncryption): TextSealer => ({
  seal: (plaintext, associated) =>
    `${SEALED_PREFIX}${encryption.currentId}:${Buffer.from(
      encryption.seal(Buffer.from(plaintext, 'utf8'), associated),
    ).toString('base64url')}`,
  open: (stored, associated) => {
    if (!stored.startsWith(SEALED_PREFIX)) return stored;
    const match = SEALED_TEXT.exec(stored);
    if (match === null) throw new KeyEncryptionError('sealed value has an unknown format');
    return encryption.open(match[1]!, Buffer.from(match[2]!, 'base64url'), associated).toString('utf8');
  },
  isSealed: (stored) => stored.startsWith(SEALED_PREFIX),
});
