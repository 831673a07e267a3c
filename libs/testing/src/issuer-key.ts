import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { keyEncryption, parseKeyEncryptionKeys, SIGNING_KEY_ENCRYPTION } from '@esign/platform';
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

/** Opens a signing key sealed by auth, with the same shared code auth uses. */
const openSealedKey = (keys: string, keyId: string, sealed: Buffer, kid: string): KeyObject => {
  const parsed = parseKeyEncryptionKeys(keys);
  if (typeof parsed === 'string') throw new Error(`KEY_ENCRYPTION_KEYS ${parsed}`);
  const der = keyEncryption(parsed, SIGNING_KEY_ENCRYPTION).open(keyId, sealed, kid);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
};
