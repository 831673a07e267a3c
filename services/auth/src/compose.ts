import { systemClock } from '@esign/contracts';
import type { DatabasePool, Logger } from '@esign/platform';
import { keyEncryption, SIGNING_KEY_ENCRYPTION } from '@esign/platform';
import { ed25519KeyGenerator, joseTokenSigner } from './adapters/crypto/ed25519-keys.js';
import { nodeSecrets } from './adapters/crypto/node-secrets.js';
import { scryptPasswordHasher } from './adapters/crypto/scrypt-password-hasher.js';
import { postgresAccountRepository } from './adapters/postgres/postgres-account-repository.js';
import { postgresAppRepository } from './adapters/postgres/postgres-app-repository.js';
import { postgresFrameOriginStore } from './adapters/postgres/postgres-frame-origin-store.js';
import { postgresKeyStore } from './adapters/postgres/postgres-key-store.js';
import { postgresOAuthRepository } from './adapters/postgres/postgres-oauth-repository.js';
import { postgresPasswordAttempts } from './adapters/postgres/postgres-password-attempts.js';
import { postgresRequestQuota } from './adapters/postgres/postgres-request-quota.js';
import { postgresSessionRepository } from './adapters/postgres/postgres-session-repository.js';
import { postgresSiteRepository } from './adapters/postgres/postgres-site-repository.js';
import { postgresTokenRepository } from './adapters/postgres/postgres-token-repository.js';
import { postgresTokenUsage, type BufferedUsageRecorder } from './adapters/postgres/postgres-token-usage.js';
import type { Deps } from './application/deps.js';
import type { AdminConfig } from './config.js';
import {
  DEFAULT_ANONYMOUS_LIMITS,
  DEFAULT_THROTTLE,
  PER_EMAIL_CAP,
  type AnonymousLimits,
} from './domain/throttle.js';
import type { Clock } from './ports/clock.js';
import type { PasswordHasher } from './ports/password-hasher.js';

/**
 * Builds every adapter on one pool: the service (main.ts), the admin CLI (admin.ts) and
 * the integration tests all wire the use cases the same way. Tests may swap the clock and
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
    quota: postgresRequestQuota(pool),
    keys,
    keyGenerator: ed25519KeyGenerator(encryption),
    signer: joseTokenSigner({
      issuer: config.TOKEN_ISSUER,
      encryption,
      loadSealedKey: keys.loadSealedKey,
      publicKeys: async () => (await keys.list()()).map((key) => key.publicJwk),
    }),
    policy: {
      accessTokenTtlDays: config.ACCESS_TOKEN_TTL_DAYS,
      clientCredentialsTtlSeconds: config.CLIENT_CREDENTIALS_TTL_SECONDS,
      sessionTtlSeconds: config.SESSION_TTL_SECONDS,
      throttle: DEFAULT_THROTTLE,
      emailThrottle: PER_EMAIL_CAP,
      anonymous: options.anonymousLimits ?? DEFAULT_ANONYMOUS_LIMITS,
    },
  };
  return { deps, usage };
};
