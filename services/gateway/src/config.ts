import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { transform } from '@esign/contracts';
import {
  BoolFromEnv,
  CommonEnv,
  commonDefaults,
  costlyRateDefaults,
  IntFromEnv,
  configLoaders,
  SecretFromEnv,
  PrincipalSigningKeyFromEnv,
  PublicBaseUrlFromEnv,
  RateFromEnv,
  UrlFromEnv,
} from '@esign/platform';

export { RateFromEnv, type Rate } from '@esign/platform';

const NonEmpty = transform<t.StringC, string>(
  t.string,
  (s) => (s.trim() === '' ? E.left('must not be empty') : E.right(s)),
  (s) => s,
  (u): u is string => typeof u === 'string',
  'NonEmpty',
);

export const Config = t.type({
  ...CommonEnv,
  PORT: IntFromEnv(1, 65535),
  /**
   * `/readyz` and `/metrics` (and `/healthz`): never routed publicly (L12). `0` takes any
   * free port (test systems that never probe it, so no two replicas race for one).
   */
  OPS_PORT: IntFromEnv(0, 65535),
  PUBLIC_BASE_URL: PublicBaseUrlFromEnv,
  AUTH_URL: UrlFromEnv('http', 'https'),
  REQUESTS_URL: UrlFromEnv('http', 'https'),
  NOTIFIER_URL: UrlFromEnv('http', 'https'),
  /** Signs the principal forwarded to requests and notifier; they hold its public key (ADR 1310). */
  PRINCIPAL_SIGNING_KEY: PrincipalSigningKeyFromEnv,
  /** The gateway's credential for auth's `POST /internal/introspect`. */
  INTROSPECTION_SECRET: SecretFromEnv(32),
  TOKEN_ISSUER: NonEmpty,
  INTROSPECTION_CACHE_SECONDS: IntFromEnv(0, 60),
  INTROSPECTION_TIMEOUT_MS: IntFromEnv(50, 60_000),
  JWKS_COOLDOWN_SECONDS: IntFromEnv(0, 3600),
  JWKS_CACHE_SECONDS: IntFromEnv(1, 86_400),
  JWKS_TIMEOUT_MS: IntFromEnv(50, 60_000),
  UPSTREAM_CONNECT_TIMEOUT_MS: IntFromEnv(50, 60_000),
  UPSTREAM_TIMEOUT_MS: IntFromEnv(50, 600_000),
  UPSTREAM_BODY_TIMEOUT_MS: IntFromEnv(50, 600_000),
  UPSTREAM_CONNECTIONS: IntFromEnv(1, 10_000),
  BODY_LIMIT_BYTES: IntFromEnv(1, 100 * 1024 * 1024),
  /** The signing form's, which carries the files of attachment fields (ADR 3920). */
  SIGNING_BODY_LIMIT_BYTES: IntFromEnv(1, 100 * 1024 * 1024),
  RATE_LIMIT_TOKEN: RateFromEnv,
  RATE_LIMIT_SITE: RateFromEnv,
  RATE_LIMIT_COSTLY: RateFromEnv,
  /** Send and remind by a test-only token (test-mode Requests only), instead of RATE_LIMIT_COSTLY. */
  RATE_LIMIT_COSTLY_TEST: RateFromEnv,
  /** Anonymous public calls (POST /v1.1/verify), per client address. */
  RATE_LIMIT_ANONYMOUS: RateFromEnv,
  TRUST_PROXY: BoolFromEnv,
  REDIS_URL: UrlFromEnv('redis', 'rediss'),
  RATE_LIMIT_KEY_PREFIX: NonEmpty,
  REDIS_TIMEOUT_MS: IntFromEnv(10, 60_000),
  GATEWAY_REPLICAS: IntFromEnv(1, 1000),
});
export type Config = t.TypeOf<typeof Config>;

export const defaults = {
  ...commonDefaults,
  PORT: '8080',
  OPS_PORT: '9080',
  PUBLIC_BASE_URL: 'http://localhost:8080',
  AUTH_URL: 'http://127.0.0.1:8081',
  REQUESTS_URL: 'http://127.0.0.1:8082',
  NOTIFIER_URL: 'http://127.0.0.1:8083',
  TOKEN_ISSUER: 'esign-auth',
  INTROSPECTION_CACHE_SECONDS: '5',
  INTROSPECTION_TIMEOUT_MS: '2000',
  JWKS_COOLDOWN_SECONDS: '10',
  JWKS_CACHE_SECONDS: '600',
  JWKS_TIMEOUT_MS: '2000',
  UPSTREAM_CONNECT_TIMEOUT_MS: '2000',
  UPSTREAM_TIMEOUT_MS: '15000',
  UPSTREAM_BODY_TIMEOUT_MS: '30000',
  UPSTREAM_CONNECTIONS: '128',
  BODY_LIMIT_BYTES: String(1024 * 1024),
  SIGNING_BODY_LIMIT_BYTES: String(32 * 1024 * 1024),
  RATE_LIMIT_TOKEN: '600/60s',
  RATE_LIMIT_SITE: '1200/60s',
  ...costlyRateDefaults,
  RATE_LIMIT_ANONYMOUS: '30/60s',
  TRUST_PROXY: 'false',
  REDIS_URL: 'redis://127.0.0.1:6379',
  GATEWAY_REPLICAS: '2',
};

export const { parseConfig: decodeGatewayConfig, loadConfig } = configLoaders(Config, defaults);
