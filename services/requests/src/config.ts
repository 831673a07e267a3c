import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { transform } from '@esign/contracts';
import {
  CommonEnv,
  commonDefaults,
  amqpDefaults,
  costlyRateDefaults,
  IntFromEnv,
  configLoaders,
  PrincipalPublicKeyFromEnv,
  PublicBaseUrlFromEnv,
  RateFromEnv,
  UrlFromEnv,
} from '@esign/platform';
import { migrateConfigLoaders } from '@esign/platform/database';
import type { SigningKey } from './adapters/crypto/hmac-url-signer.js';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** `kid1:secret1,kid2:secret2`: the first key signs Execution URLs, all of them verify. */
export const parseSigningKeys = (s: string): E.Either<string, SigningKey[]> => {
  const keys: SigningKey[] = [];
  for (const part of s.split(',')) {
    const colon = part.indexOf(':');
    const id = colon === -1 ? '' : part.slice(0, colon).trim();
    const secret = colon === -1 ? '' : part.slice(colon + 1).trim();
    if (!KEY_ID.test(id))
      return E.left('must be kid:secret pairs separated by commas, each kid 1-32 letters, digits, _ or -');
    if (secret.length < 32) return E.left(`has a secret shorter than 32 characters for key "${id}"`);
    if (keys.some((k) => k.id === id)) return E.left(`names key "${id}" twice`);
    keys.push({ id, secret });
  }
  return E.right(keys);
};

const SOURCE = /^(?:'self'|https?:\/\/(?:\*\.)?[A-Za-z0-9.-]+(?::[0-9]{1,5})?)$/;

/**
 * CSP `frame-ancestors` sources for the signer pages: `'none'` (nobody may embed them),
 * or a space-separated list of `'self'` and http(s) origins (`https://*.example.com` too).
 */
export const parseFrameAncestors = (s: string): E.Either<string, string> => {
  const sources = s.trim().split(/\s+/);
  if (sources.length === 1 && sources[0] === "'none'") return E.right("'none'");
  const bad = sources.find((source) => !SOURCE.test(source));
  return bad === undefined
    ? E.right(sources.join(' '))
    : E.left(
        `has "${bad}": use 'none', or 'self' and origins like https://app.example.com separated by spaces`,
      );
};

const FrameAncestorsFromEnv = transform(
  t.string,
  parseFrameAncestors,
  (s) => s,
  (u): u is string => typeof u === 'string',
  'FrameAncestorsFromEnv',
);

const SigningKeysFromEnv = transform(
  t.string,
  parseSigningKeys,
  (keys) => keys.map((k) => `${k.id}:${k.secret}`).join(','),
  (u): u is SigningKey[] => Array.isArray(u),
  'SigningKeysFromEnv',
);

const RequiredConfig = t.type({
  ...CommonEnv,
  PORT: IntFromEnv(1, 65535),
  DATABASE_URL: UrlFromEnv('postgres', 'postgresql'),
  AMQP_URL: UrlFromEnv('amqp', 'amqps'),
  PUBLIC_BASE_URL: PublicBaseUrlFromEnv,
  /** The gateway's public key: verifies the principal it forwards with every call (ADR 1310). */
  PRINCIPAL_PUBLIC_KEY: PrincipalPublicKeyFromEnv,
  URL_SIGNING_KEYS: SigningKeysFromEnv,
  IDEMPOTENCY_RETENTION_HOURS: IntFromEnv(24, 24 * 30),
  /** How long a deleted template no Request names is kept before it is removed (ADR 3460). */
  DELETED_TEMPLATE_RETENTION_HOURS: IntFromEnv(1, 24 * 365),
  /** Least time between two notifications of one Request (the send counts as the first). */
  REMIND_MIN_INTERVAL_SECONDS: IntFromEnv(1, 7 * 86_400),
  /** Most reminders one Request may send. */
  REMIND_MAX: IntFromEnv(0, 100),
  /** How long an Execution URL opens after it was issued, the send or a reissue (ADR 1321). */
  EXECUTION_URL_LIFETIME_DAYS: IntFromEnv(1, 3650),
  /** How often open Requests past their expires_at are marked expired, and due automatic reminders sent (ADR 3130). */
  EXPIRY_SWEEP_INTERVAL_MS: IntFromEnv(100, 3_600_000),
  /** Who may embed the signer pages in a frame (CSP frame-ancestors). */
  SIGNING_FRAME_ANCESTORS: FrameAncestorsFromEnv,
  /** Proxies in front of the service that append to X-Forwarded-For (the gateway is one). */
  TRUSTED_PROXY_HOPS: IntFromEnv(0, 10),
  /** One-time codes texted to one signer in any hour (signer authentication, ADR 2001): each SMS costs money. */
  SIGNER_SMS_CODES_PER_HOUR: IntFromEnv(1, 20),
  /**
   * Bulk send (ADR 2201): each row's send is charged to the token's money-costing bucket,
   * the gateway's (same names, same Redis): set these as the gateway's are.
   */
  RATE_LIMIT_COSTLY: RateFromEnv,
  RATE_LIMIT_COSTLY_TEST: RateFromEnv,
  RATE_LIMIT_KEY_PREFIX: t.string,
  REDIS_TIMEOUT_MS: IntFromEnv(10, 60_000),
  /** Requests replicas: while Redis is away each paces bulk sends at 1/N of the limits. */
  REQUESTS_REPLICAS: IntFromEnv(1, 1000),
});

/** Optional settings: unset (or empty) is a choice, not a mistake. */
const OptionalConfig = t.partial({
  /**
   * The certificate and key that seal executed documents (ADR 2100): either a PEM
   * certificate chain file and a PEM key file, or a PKCS#12 file; empty when unset.
   */
  PDF_SIGNING_CERT_FILE: t.string,
  PDF_SIGNING_KEY_FILE: t.string,
  PDF_SIGNING_P12_FILE: t.string,
  /** The passphrase of the PKCS#12 file or of an encrypted PEM key. */
  PDF_SIGNING_PASSPHRASE: t.string,
  /** An RFC 3161 Time-Stamp Authority; empty: no timestamp. */
  PDF_SIGNING_TSA_URL: UrlFromEnv('http', 'https'),
  /** The gateway's Redis (its rate-limit buckets); unset: this replica paces bulk sends alone. */
  REDIS_URL: UrlFromEnv('redis', 'rediss'),
});
export const Config = t.intersection([RequiredConfig, OptionalConfig]);
export type Config = t.TypeOf<typeof Config>;

export const defaults = {
  ...commonDefaults,
  PORT: '8082',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/esign_requests',
  ...amqpDefaults,
  PUBLIC_BASE_URL: 'http://localhost:8080',
  IDEMPOTENCY_RETENTION_HOURS: '24',
  DELETED_TEMPLATE_RETENTION_HOURS: '24',
  REMIND_MIN_INTERVAL_SECONDS: '3600',
  REMIND_MAX: '5',
  EXECUTION_URL_LIFETIME_DAYS: '30',
  EXPIRY_SWEEP_INTERVAL_MS: '5000',
  SIGNING_FRAME_ANCESTORS: "'none'",
  TRUSTED_PROXY_HOPS: '1',
  SIGNER_SMS_CODES_PER_HOUR: '3',
  ...costlyRateDefaults,
  REQUESTS_REPLICAS: '2',
};

export const { parseConfig, loadConfig } = configLoaders(Config, defaults);

/** What `migrate.js` reads: the database and the log level, no other secret (L12). */
export { MigrateConfig } from '@esign/platform/database';
export const { migrateDefaults, loadMigrateConfig } = migrateConfigLoaders(defaults.DATABASE_URL);
