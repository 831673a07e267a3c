import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals signing keys at rest with AES-256-GCM under keys from `KEY_ENCRYPTION_KEYS`
 * (`id:secret[,id:secret…]`). The first seals; every one listed can open, so the
 * encryption key can be changed without downtime (add a new first one, restart, rotate
 * the signing key, later drop the old one). The additional data binds a sealed key to
 * its kid.
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

export const keyEncryption = (keys: ReadonlyArray<{ id: string; secret: string }>): KeyEncryption => {
  if (keys.length === 0) throw new KeyEncryptionError('no key encryption keys');
  const derived = new Map(
    keys.map(({ id, secret }) => [
      id,
      Buffer.from(hkdfSync('sha256', secret, 'esign-auth', `signing-key-encryption:${id}`, 32)),
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
