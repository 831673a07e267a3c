// Measures auth's hot paths on this machine against a real Postgres, over real HTTP:
//   node --conditions=source --import=tsx services/auth/test/bench/auth.bench.ts
// (DATABASE_URL defaults to the local server; the bench makes and drops its own database.)
// Prints one JSON object: requests/s and latency percentiles per endpoint.
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { createLogger, decodeConfig } from '@esign/platform';
import { createDatabasePool, migrate } from '@esign/platform/database';
import { createTestDatabase, percentile, useLocalServers } from '@esign/testing';
import { scryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher.js';
import { createAuthHttpApp } from '../../src/adapters/http/app.js';
import { createTokenForApp } from '../../src/application/admin-tokens.js';
import { issueClientSecret } from '../../src/application/client-secret.js';
import { composeDeps } from '../../src/service.js';
import { AdminConfig, adminDefaults } from '../../src/config.js';
import { migrationsDir } from '../../src/migrate.js';
import {
  INTERNAL_SECRET,
  KEY_ENCRYPTION_KEYS,
  listen,
  PASSWORD,
  seedAccount,
  signedInWithApp,
} from '../support/harness.js';
import { valueOf } from '../support/port-task.js';

useLocalServers();

const measure = async (name: string, total: number, concurrency: number, call: () => Promise<Response>) => {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const response = await call();
        await response.arrayBuffer();
        if (!response.ok) failures++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const ms = (v: number) => Math.round(v * 100) / 100;
  return {
    name,
    requests: total,
    concurrency,
    failures,
    per_second: Math.round(total / seconds),
    p50_ms: ms(percentile(latencies, 50)),
    p99_ms: ms(percentile(latencies, 99)),
  };
};

const database = await createTestDatabase('auth_bench');
try {
  await migrate(database.url, migrationsDir);
  const pool = await createDatabasePool(database.url);
  const logger = createLogger('auth-bench', 'silent');
  const config: AdminConfig = decodeConfig(AdminConfig, adminDefaults, {
    DATABASE_URL: database.url,
    KEY_ENCRYPTION_KEYS,
  });
  // Production password hashing: sign-in cost is part of what is measured.
  const { deps, usage } = composeDeps({ pool, logger, config, hasher: scryptPasswordHasher() });
  const server = await listen(
    createAuthHttpApp({ deps, logger, readiness: [], introspectionSecret: INTERNAL_SECRET }).callback(),
  );
  await seedAccount(deps, {
    sites: ['Production', 'Development'],
    users: { 'bench@acme.test': ['Production', 'Development'] },
  });
  const { app } = await signedInWithApp(deps, 'bench@acme.test');
  const issued = await createTokenForApp(deps)({ appId: app.id })();
  if (E.isLeft(issued)) throw new Error('no token');
  const secret = await valueOf(issueClientSecret(deps)(app.id));
  const basic = `Basic ${Buffer.from(`${app.id}:${secret.clientSecret}`).toString('base64')}`;

  const results = [
    await measure('POST /internal/introspect', 5000, 16, () =>
      fetch(`${server.url}/internal/introspect`, {
        method: 'POST',
        headers: { authorization: `Bearer ${INTERNAL_SECRET}`, 'content-type': 'application/json' },
        body: JSON.stringify({ token_id: issued.right.record.id }),
      }),
    ),
    await measure('GET /.well-known/jwks.json', 3000, 16, () => fetch(`${server.url}/.well-known/jwks.json`)),
    await measure('POST /oauth/token (client credentials)', 1000, 8, () =>
      fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }),
    ),
    await measure('POST /v1.1/sessions (scrypt N=2^15,r=8,p=3)', 40, 4, () =>
      fetch(`${server.url}/v1.1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@acme.test', password: PASSWORD }),
      }),
    ),
  ];
  process.stdout.write(`${JSON.stringify({ node: process.version, results }, null, 2)}\n`);
  await server.close();
  await usage.stop();
  await pool.end();
} finally {
  await database.drop();
}
