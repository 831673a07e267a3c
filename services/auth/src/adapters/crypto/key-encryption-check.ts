import { KeyEncryptionError } from '@esign/platform';

/** EX_CONFIG: the configuration does not fit the data, as for a wrong variable. */
export const KEY_MISMATCH_EXIT_CODE = 78;

/**
 * What an operator reads when KEY_ENCRYPTION_KEYS cannot open the signing key kept in
 * auth's database. The usual cause locally is a second clone of the repository: its
 * `npm start` made new keys in its own `.data/`, while the databases (named the same on
 * the one Postgres) were created, and their signing key sealed, by the first clone.
 */
export const keyMismatchAdvice = (error: KeyEncryptionError, database: string): string =>
  [
    `KEY_ENCRYPTION_KEYS cannot open the signing key stored in the database ${database} (${error.message}):`,
    `the database was set up with other key-encryption keys.`,
    `Start auth with the KEY_ENCRYPTION_KEYS it was set up with (to change them, list the new key first and keep the old one after it).`,
    `With \`npm start\` on a second clone: copy .data/local-secrets.json from the clone that created the databases,`,
    `or give this clone databases of its own (ESIGN_DATABASE_PREFIX=other_ npm start).`,
    `If those keys are lost: \`npm run admin -- rotate-key --revoke-previous\` makes a new signing key and withdraws the old ones (every token they signed stops working).`,
  ].join(' ');

/**
 * Signs once with the current key at start-up, so a key-encryption mismatch stops the
 * service at once with advice, not at the first token request with a stack trace.
 * Resolves to the advice, or undefined when the key opens; other failures propagate.
 */
export const checkSigningKeyOpens = async (
  signOnce: () => Promise<unknown>,
  database: string,
): Promise<string | undefined> => {
  try {
    await signOnce();
    return undefined;
  } catch (error) {
    if (error instanceof KeyEncryptionError) return keyMismatchAdvice(error, database);
    throw error;
  }
};
