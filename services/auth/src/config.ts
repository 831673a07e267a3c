import * as t from 'io-ts';
import {
  amqpDefaults,
  CommonEnv,
  commonDefaults,
  IntFromEnv,
  KeyEncryptionKeysFromEnv,
  PublicBaseUrlFromEnv,
  configLoaders,
  SecretFromEnv,
  UrlFromEnv,
} from '@esign/platform';
import { migrateConfigLoaders } from '@esign/platform/database';

/** What both the service and the admin CLI need: the database, the keys and the lifetimes. */
const CoreEnv = {
  LOG_LEVEL: CommonEnv.LOG_LEVEL,
  DATABASE_URL: UrlFromEnv('postgres', 'postgresql'),
  /** `iss` of every access token; the gateway verifies against the same value. */
  TOKEN_ISSUER: t.string,
  /** `id:secret[,id:secret]`: the first seals new signing keys, all open existing ones. */
  KEY_ENCRYPTION_KEYS: KeyEncryptionKeysFromEnv,
  ACCESS_TOKEN_TTL_DAYS: IntFromEnv(1, 365),
  CLIENT_CREDENTIALS_TTL_SECONDS: IntFromEnv(60, 86_400),
  SESSION_TTL_SECONDS: IntFromEnv(60, 86_400),
};

const coreDefaults = {
  LOG_LEVEL: commonDefaults.LOG_LEVEL,
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/esign_auth',
  TOKEN_ISSUER: 'esign-auth',
  ACCESS_TOKEN_TTL_DAYS: '90',
  CLIENT_CREDENTIALS_TTL_SECONDS: '3600',
  SESSION_TTL_SECONDS: '3600',
};

export const AdminConfig = t.type(CoreEnv);
export type AdminConfig = t.TypeOf<typeof AdminConfig>;

export const Config = t.type({
  ...CommonEnv,
  ...CoreEnv,
  PORT: IntFromEnv(1, 65535),
  /** The gateway's credential for `POST /internal/introspect`, and nothing else (ADR 1310). */
  INTROSPECTION_SECRET: SecretFromEnv(32),
  /** Proxies in front that append to X-Forwarded-For: 1 (the gateway); 2 behind an ingress too. */
  TRUSTED_PROXY_HOPS: IntFromEnv(0, 10),
  /** Unauthenticated sign-ins and token requests per client address per minute (ADR 1303). */
  ANONYMOUS_LIMIT_PER_CLIENT_PER_MINUTE: IntFromEnv(1, 1_000_000),
  /** The same, from all clients together. */
  ANONYMOUS_LIMIT_GLOBAL_PER_MINUTE: IntFromEnv(1, 10_000_000),
  /** RabbitMQ: auth only publishes, through its outbox (the e-mails of password links, ADR 3000). */
  AMQP_URL: UrlFromEnv('amqp', 'amqps'),
  /** The gateway's public origin: the links to choose a new password point to its web application. */
  PUBLIC_BASE_URL: PublicBaseUrlFromEnv,
});
export type Config = t.TypeOf<typeof Config>;

export const defaults = {
  ...commonDefaults,
  ...coreDefaults,
  PORT: '8081',
  TRUSTED_PROXY_HOPS: '1',
  ANONYMOUS_LIMIT_PER_CLIENT_PER_MINUTE: '60',
  ANONYMOUS_LIMIT_GLOBAL_PER_MINUTE: '1200',
  ...amqpDefaults,
  PUBLIC_BASE_URL: 'http://localhost:8080',
};
export const adminDefaults = coreDefaults;

export const { loadConfig } = configLoaders(Config, defaults);

/** What `migrate.js` reads: the database and the log level, no other secret (L12). */
export { MigrateConfig } from '@esign/platform/database';
export const { migrateDefaults, loadMigrateConfig } = migrateConfigLoaders(coreDefaults.DATABASE_URL);
