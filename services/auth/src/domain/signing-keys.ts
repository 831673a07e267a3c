/** What the key schedule needs to know about a signing key (never its private half). */
export interface KeyMeta {
  readonly kid: string;
  readonly createdAt: Date;
  readonly activatesAt: Date;
  readonly revokedAt: Date | null;
  /** The latest expiry among the unrevoked tokens it signed, if any. */
  readonly lastTokenExpiresAt: Date | null;
}

/**
 * How long past its last token's expiry a retired key stays published: covers verifiers'
 * clock tolerance and a token checked just as it expires.
 */
export const RETIRED_KEY_GRACE_SECONDS = 300;

const newestFirst = (a: KeyMeta, b: KeyMeta) =>
  b.activatesAt.getTime() - a.activatesAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime();

/** The key that signs at `now`: the newest unrevoked key already active. */
export const signingKeyAt = <K extends KeyMeta>(keys: readonly K[], now: Date): K | undefined =>
  [...keys]
    .filter((k) => k.revokedAt === null && k.activatesAt.getTime() <= now.getTime())
    .sort(newestFirst)[0];

/**
 * The keys to publish at `now`, newest first: keys waiting to activate (so verifiers know
 * them before they sign anything), the signing key, and retired keys while a token they
 * signed may still be presented. Revoked keys never.
 */
export const publishedKeys = <K extends KeyMeta>(keys: readonly K[], now: Date): K[] => {
  const signing = signingKeyAt(keys, now);
  return [...keys]
    .filter(
      (k) =>
        k.revokedAt === null &&
        (k.activatesAt.getTime() > now.getTime() ||
          k.kid === signing?.kid ||
          (k.lastTokenExpiresAt !== null &&
            k.lastTokenExpiresAt.getTime() + RETIRED_KEY_GRACE_SECONDS * 1000 > now.getTime())),
    )
    .sort(newestFirst);
};

/**
 * Keys to revoke when an operator replaces a key suspected of a leak: every other
 * unrevoked key, the ones waiting to activate included.
 */
export const keysOtherThan = <K extends KeyMeta>(keys: readonly K[], keep: string): K[] =>
  keys.filter((k) => k.kid !== keep && k.revokedAt === null);

/** Where a key stands at a moment, as an operator sees it (`npm run admin -- list keys`). */
export type KeyState = 'signing' | 'upcoming' | 'retired' | 'expired' | 'revoked';

/**
 * Every key, in the given order, with its state and whether the JWKS publishes it at
 * `now`: revoked; else the signing key; else waiting to activate (upcoming); else
 * published while its tokens may still be presented (retired); else expired.
 */
export const keySchedule = <K extends KeyMeta>(
  keys: readonly K[],
  now: Date,
): { readonly key: K; readonly state: KeyState; readonly published: boolean }[] => {
  const signing = signingKeyAt(keys, now)?.kid;
  const published = new Set(publishedKeys(keys, now).map((k) => k.kid));
  const stateOf = (key: K): KeyState =>
    key.revokedAt !== null
      ? 'revoked'
      : key.kid === signing
        ? 'signing'
        : key.activatesAt > now
          ? 'upcoming'
          : published.has(key.kid)
            ? 'retired'
            : 'expired';
  return keys.map((key) => ({ key, state: stateOf(key), published: published.has(key.kid) }));
};
