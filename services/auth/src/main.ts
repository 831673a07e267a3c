import { createLogger, runMain, serve, startService } from '@esign/platform';
import { postgresHousekeeping } from './adapters/postgres/postgres-housekeeping.js';
import { createAuthHttpApp } from './adapters/http/app.js';
import { checkSigningKeyOpens, KEY_MISMATCH_EXIT_CODE } from './adapters/crypto/key-encryption-check.js';
import { ensureSigningKey } from './application/ensure-signing-key.js';
import { composeDeps } from './compose.js';
import { loadConfig } from './config.js';
import { migrationsDir } from './migrate.js';

const config = loadConfig();
// A line per call (the access log) written one by one costs a write each, a fifth of a
// busy service's CPU in `npm run bench`; batched, as the gateway does (ADR 404).
const logger = createLogger('auth', config.LOG_LEVEL, { bufferBytes: 8 * 1024 });

// The composition root. Auth talks to Postgres only (no messaging): every API call waits
// on its introspection, so it must not depend on the broker being up.
runMain(logger, async () => {
  const { app, steps } = await startService({
    service: 'auth',
    logger,
    databaseUrl: config.DATABASE_URL,
    migrationsDir,
    build: async ({ pool, readiness }) => {
      const { deps, usage } = composeDeps({
        pool,
        logger,
        config,
        anonymousLimits: {
          perClientPerMinute: config.ANONYMOUS_LIMIT_PER_CLIENT_PER_MINUTE,
          globalPerMinute: config.ANONYMOUS_LIMIT_GLOBAL_PER_MINUTE,
        },
      });
      // Stops start-up, saying what to do, when KEY_ENCRYPTION_KEYS cannot open the signing key.
      const key = await ensureSigningKey(deps)();
      const mismatch = await checkSigningKeyOpens(
        deps.signer.sign(key.kid, {
          sub: 'start-up',
          jti: 'start-up',
          client_id: 'start-up',
          iat: 0,
          exp: 1,
        }),
        new URL(config.DATABASE_URL).pathname.slice(1),
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
        }),
        steps: [
          { name: 'housekeeping', run: () => Promise.resolve(housekeeping.stop()) },
          { name: 'token usage', run: () => usage.stop() },
        ],
      };
    },
  });
  await serve({ app, port: config.PORT, host: config.LISTEN_HOST, logger, steps });
});
