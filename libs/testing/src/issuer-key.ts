import { createDecipheriv, createPrivateKey, hkdfSync, sign, type KeyObject } from 'node:crypto';
import pg from 'pg';

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/**
 * Signs a JWT with auth's current signing key, opened from auth's database the way auth
 * does: lets a test make a token that differs from a real one in one claim only.
 */
export const signWithAuthKey = async (
  databaseUrl: string,
  keyEncryptionKeys: string,
  claims: Record<string, unknown>,
): Promise<string> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let row: { kid: string; encryption_key_id: string; sealed_private_key: Buffer } | undefined;
  try {
    const result = await client.query<{
      kid: string;
      encryption_key_id: string;
      sealed_private_key: Buffer;
    }>(
      `SELECT kid, encryption_key_id, sealed_private_key FROM signing_keys
       WHERE revoked_at IS NULL AND activates_at <= now() ORDER BY activates_at DESC LIMIT 1`,
    );
    row = result.rows[0];
  } finally {
    await client.end();
  }
  if (row === undefined) throw new Error('auth has no signing key yet');
  const key = openSealedKey(keyEncryptionKeys, row.encryption_key_id, row.sealed_private_key, row.kid);
  const header = base64url(JSON.stringify({ alg: 'EdDSA', typ: 'at+jwt', kid: row.kid }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign(null, Buffer.from(`${header}.${payload}`), key);
  return `${header}.${payload}.${base64url(signature)}`;
};

/** Opens a signing key sealed by auth (AES-256-GCM under an HKDF of KEY_ENCRYPTION_KEYS, kid as AAD). */
const openSealedKey = (keys: string, keyId: string, sealed: Buffer, kid: string): KeyObject => {
  const entry = keys.split(',').find((k) => k.startsWith(`${keyId}:`));
  if (entry === undefined) throw new Error(`no key encryption key ${keyId}`);
  const derived = Buffer.from(
    hkdfSync('sha256', entry.slice(keyId.length + 1), 'esign-auth', `signing-key-encryption:${keyId}`, 32),
  );
  const nonce = sealed.subarray(1, 13);
  const tag = sealed.subarray(sealed.length - 16);
  const decipher = createDecipheriv('aes-256-gcm', derived, nonce);
  decipher.setAAD(Buffer.from(kid, 'utf8'));
  decipher.setAuthTag(tag);
  const der = Buffer.concat([decipher.update(sealed.subarray(13, sealed.length - 16)), decipher.final()]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
};
