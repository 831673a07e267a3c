import * as E from 'fp-ts/lib/Either.js';
import { absurd } from 'fp-ts/lib/function.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { systemClock } from '@esign/contracts';
import { keyEncryption, KeyEncryptionError, SIGNING_KEY_ENCRYPTION, type Logger } from '@esign/platform';
import {
  createDatabasePool,
  startService,
  type DatabasePool,
  type RunningService,
} from '@esign/platform/database';
import { createAuthHttpApp } from './adapters/http/app.js';
import {
  checkSigningKeyOpens,
  keyMismatchAdvice,
  KEY_MISMATCH_EXIT_CODE,
} from './adapters/crypto/key-encryption-check.js';
import { postgresHousekeeping } from './adapters/postgres/postgres-housekeeping.js';
import { ed25519KeyGenerator, joseTokenSigner } from './adapters/crypto/ed25519-keys.js';
import { nodeSecrets } from './adapters/crypto/node-secrets.js';
import { scryptPasswordHasher } from './adapters/crypto/scrypt-password-hasher.js';
import { postgresAccountRepository } from './adapters/postgres/postgres-account-repository.js';
import { postgresAppRepository } from './adapters/postgres/postgres-app-repository.js';
import { postgresFrameOriginStore } from './adapters/postgres/postgres-frame-origin-store.js';
import { postgresKeyStore } from './adapters/postgres/postgres-key-store.js';
import { postgresOAuthRepository } from './adapters/postgres/postgres-oauth-repository.js';
import { postgresInvitations } from './adapters/postgres/postgres-invitations.js';
import { postgresPasswordResets } from './adapters/postgres/postgres-password-resets.js';
import { postgresPasswordAttempts } from './adapters/postgres/postgres-password-attempts.js';
import { postgresRequestQuota } from './adapters/postgres/postgres-request-quota.js';
import { postgresSessionRepository } from './adapters/postgres/postgres-session-repository.js';
import { postgresSiteRepository } from './adapters/postgres/postgres-site-repository.js';
import { postgresTokenRepository } from './adapters/postgres/postgres-token-repository.js';
import { postgresTokenUsage, type BufferedUsageRecorder } from './adapters/postgres/postgres-token-usage.js';
import type { Deps } from './application/deps.js';
import { ensureSigningKey } from './application/ensure-signing-key.js';
import type { AdminConfig, Config } from './config.js';
import {
  DEFAULT_ANONYMOUS_LIMITS,
  DEFAULT_THROTTLE,
  PER_EMAIL_CAP,
  type AnonymousLimits,
} from './domain/throttle.js';
import type { Clock } from './ports/clock.js';
import type { PasswordHasher } from './ports/password-hasher.js';
import { migrationsDir } from './migrate.js';

/** The answer of a port operation with no expected failure (an outage rejects). */
const valueOf = async <A>(operation: TE.TaskEither<never, A>): Promise<A> => {
  const answer = await operation();
  return E.isRight(answer) ? answer.right : absurd(answer.left);
};

/**
 * Builds every adapter on one pool: the service (`startAuthService`), the admin CLI
 * (`openAdminDeps`) and the integration tests all wire the use cases the same way. Tests may swap the clock and
 * use a cheaper hasher.
 */
export const composeDeps = (options: {
  readonly pool: DatabasePool;
  readonly logger: Logger;
  readonly config: AdminConfig;
  readonly clock?: Clock;
  readonly hasher?: PasswordHasher;
  readonly usageFlushMs?: number;
  readonly anonymousLimits?: AnonymousLimits;
  /** The gateway's public origin, for links e-mailed to users (the service's PUBLIC_BASE_URL). */
  readonly publicBaseUrl?: string;
}): { deps: Deps; usage: BufferedUsageRecorder } => {
  const { pool, config } = options;
  const encryption = keyEncryption(config.KEY_ENCRYPTION_KEYS, SIGNING_KEY_ENCRYPTION);
  const keys = postgresKeyStore(pool);
  const usage = postgresTokenUsage(pool, options.logger, {
    ...(options.usageFlushMs === undefined ? {} : { intervalMs: options.usageFlushMs }),
  });
  const deps: Deps = {
    clock: options.clock ?? systemClock,
    secrets: nodeSecrets,
    hasher: options.hasher ?? scryptPasswordHasher(),
    accounts: postgresAccountRepository(pool),
    sites: postgresSiteRepository(pool),
    apps: postgresAppRepository(pool),
    frameOrigins: postgresFrameOriginStore(pool),
    tokens: postgresTokenRepository(pool),
    oauth: postgresOAuthRepository(pool),
    usage,
    sessions: postgresSessionRepository(pool),
    attempts: postgresPasswordAttempts(pool),
    passwordResets: postgresPasswordResets(pool),
    invitations: postgresInvitations(pool),
    quota: postgresRequestQuota(pool),
    keys,
    keyGenerator: ed25519KeyGenerator(encryption),
    signer: joseTokenSigner({
      issuer: config.TOKEN_ISSUER,
      encryption,
      loadSealedKey: keys.loadSealedKey,
      publicKeys: async () => (await valueOf(keys.list())).map((key) => key.publicJwk),
    }),
    policy: {
      accessTokenTtlDays: config.ACCESS_TOKEN_TTL_DAYS,
      clientCredentialsTtlSeconds: config.CLIENT_CREDENTIALS_TTL_SECONDS,
      sessionTtlSeconds: config.SESSION_TTL_SECONDS,
      throttle: DEFAULT_THROTTLE,
      emailThrottle: PER_EMAIL_CAP,
      anonymous: options.anonymousLimits ?? DEFAULT_ANONYMOUS_LIMITS,
      publicBaseUrl: options.publicBaseUrl ?? 'http://localhost:8080',
    },
  };
  return { deps, usage };
};

const databaseName = (config: AdminConfig): string => new URL(config.DATABASE_URL).pathname.slice(1);

/**
 * The composition root, on the platform's skeleton (`startService`: migrations, pool,
 * readiness and shutdown). Every API call waits on auth's introspection, so auth must
 * not depend on the broker being up: it only publishes (the e-mails of links to choose a
 * new password, ADR 3000), through its outbox, and the broker is left out of its
 * readiness. A broker outage delays those e-mails; nothing else notices.
 */
export const startAuthService = (config: Config, logger: Logger): Promise<RunningService> =>
  startService({
    service: 'auth',
    logger,
    databaseUrl: config.DATABASE_URL,
    migrationsDir,
    messaging: { amqpUrl: config.AMQP_URL, prefix: config.AMQP_PREFIX, ready: false },
    build: async ({ pool, readiness, metrics }) => {
      const { deps, usage } = composeDeps({
        pool,
        logger,
        config,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        anonymousLimits: {
          perClientPerMinute: config.ANONYMOUS_LIMIT_PER_CLIENT_PER_MINUTE,
          globalPerMinute: config.ANONYMOUS_LIMIT_GLOBAL_PER_MINUTE,
        },
      });
      // Stops start-up, saying what to do, when KEY_ENCRYPTION_KEYS cannot open the signing key.
      const key = await valueOf(ensureSigningKey(deps));
      const mismatch = await checkSigningKeyOpens(
        deps.signer.sign(key.kid, {
          sub: 'start-up',
          jti: 'start-up',
          client_id: 'start-up',
          iat: 0,
          exp: 1,
        }),
        databaseName(config),
      );
      if (mismatch !== undefined) {
        logger.fatal(mismatch);
        await pool.end();
        process.exit(KEY_MISMATCH_EXIT_CODE);
      }
      const housekeeping = postgresHousekeeping(pool, logger, {
        quietSeconds: deps.policy.throttle.quietSeconds,
      });
      return {
        app: createAuthHttpApp({
          deps,
          logger,
          readiness,
          introspectionSecret: config.INTROSPECTION_SECRET,
          trustedProxyHops: config.TRUSTED_PROXY_HOPS,
          metrics,
        }),
        steps: [
          { name: 'housekeeping', run: () => Promise.resolve(housekeeping.stop()) },
          { name: 'token usage', run: () => usage.stop() },
        ],
      };
    },
  });

export interface AdminDeps {
  readonly deps: Deps;
  /** The operator's advice when `error` is a key-encryption mismatch, else undefined. */
  readonly keyMismatch: (error: unknown) => string | undefined;
  readonly close: () => Promise<void>;
}

/**
 * The admin CLI's wiring (adapters/cli/admin.ts): the use cases on a small pool of their
 * own, built as the service builds them. The database must be migrated already.
 */
export const openAdminDeps = async (config: AdminConfig, logger: Logger): Promise<AdminDeps> => {
  const pool = await createDatabasePool(config.DATABASE_URL, { maximumPoolSize: 2 });
  const { deps, usage } = composeDeps({ pool, logger, config });
  return {
    deps,
    keyMismatch: (error) =>
      error instanceof KeyEncryptionError ? keyMismatchAdvice(error, databaseName(config)) : undefined,
    close: async () => {
      await usage.stop();
      await pool.end();
    },
  };
};
