import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import { createDatabasePool, migrate, type DatabasePool } from '@esign/platform/database';
import { createTestDatabase, testLogger, type TestDatabase } from '@esign/testing';
import { scryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher.js';
import { createAuthHttpApp } from '../../src/adapters/http/app.js';
import type { BufferedUsageRecorder } from '../../src/adapters/postgres/postgres-token-usage.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccount } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import type { Deps } from '../../src/application/deps.js';
import { signIn } from '../../src/application/sign-in.js';
import { addMember, createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import { composeDeps } from '../../src/service.js';
import { adminDefaults, AdminConfig } from '../../src/config.js';
import { migrationsDir } from '../../src/migrate.js';
import { decodeConfig } from '@esign/platform';

export const INTERNAL_SECRET = 'test-internal-secret-0123456789abcdef';
export const KEY_ENCRYPTION_KEYS = 'k1:test-key-encryption-secret-0123456789abcdef';
export const PASSWORD = 'correct horse battery staple';

/** Real time, shiftable: tokens issued "in the past" are verified by jose against the real clock. */
export const shiftableClock = () => {
  let offsetMs = 0;
  let frozenAt: number | undefined;
  return {
    now: () => new Date((frozenAt ?? Date.now()) + offsetMs),
    shift: (seconds: number) => {
      offsetMs += seconds * 1000;
    },
    /** Stops at the present instant, so only `shift` moves it: a test counting seconds. */
    freeze: () => {
      frozenAt = Date.now();
    },
    reset: () => {
      offsetMs = 0;
      frozenAt = undefined;
    },
  };
};

export interface Harness {
  readonly database: TestDatabase;
  readonly pool: DatabasePool;
  readonly deps: Deps;
  readonly usage: BufferedUsageRecorder;
  readonly clock: ReturnType<typeof shiftableClock>;
  readonly config: AdminConfig;
  /** The whole HTTP app, for supertest. */
  readonly callback: ReturnType<ReturnType<typeof createAuthHttpApp>['callback']>;
  close(): Promise<void>;
}

/** A fresh database of its own, migrated, with every adapter wired as main.ts wires them. */
export const startHarness = async (label: string): Promise<Harness> => {
  const database = await createTestDatabase(label);
  await migrate(database.url, migrationsDir);
  const pool = await createDatabasePool(database.url, { maximumPoolSize: 4 });
  const config: AdminConfig = decodeConfig(AdminConfig, adminDefaults, {
    DATABASE_URL: database.url,
    KEY_ENCRYPTION_KEYS,
  });
  const clock = shiftableClock();
  const logger = testLogger('auth');
  // The production parameters cost 32 MiB and ~0.1 s a hash; tests use the same code, cheaper.
  const hasher = scryptPasswordHasher({ logN: 10, r: 8, p: 1 });
  const { deps, usage } = composeDeps({ pool, logger, config, clock, hasher, usageFlushMs: 3_600_000 });
  const app = createAuthHttpApp({ deps, logger, readiness: [], introspectionSecret: INTERNAL_SECRET });
  return {
    database,
    pool,
    deps,
    usage,
    clock,
    config,
    callback: app.callback(),
    close: async () => {
      await usage.stop();
      await pool.end();
      await database.drop();
    },
  };
};

/** Listens on a free port (never a fixed one); for tests that need a real URL (the JWKS). */
export const listen = async (
  callback: Harness['callback'],
): Promise<{ url: string; server: Server; close: () => Promise<void> }> => {
  const server = createServer(callback);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
};

const ok = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw new Error(`seed failed: ${JSON.stringify(result.left)}`);
  return result.right;
};

/** An account with sites, and users who are members of some of them. */
export const seedAccount = async (
  deps: Deps,
  spec: { name?: string; sites: string[]; users: Record<string, string[]>; apiAccess?: boolean },
) => {
  const account = await ok(
    createAccount(deps)({ name: spec.name ?? 'Acme', apiAccess: spec.apiAccess ?? true }),
  );
  const sites = new Map<string, { id: number; name: string }>();
  for (const name of spec.sites) {
    const site = await ok(createSite(deps)({ accountId: account.id, name }));
    sites.set(name, { id: site.id, name: site.name });
  }
  const users = new Map<string, { id: string; email: string }>();
  for (const [email, memberOf] of Object.entries(spec.users)) {
    const user = await ok(createUser(deps)({ accountId: account.id, email, password: PASSWORD }));
    for (const site of memberOf) await ok(addMember(deps)({ siteId: sites.get(site)!.id, userId: user.id }));
    users.set(email, { id: user.id, email: user.email });
  }
  return { account, sites, users };
};

/** Signs in and makes an app, through the use cases. */
export const signedInWithApp = async (deps: Deps, email: string, appName = 'Integration') => {
  const signedIn = await ok(signIn(deps)({ email, password: PASSWORD }));
  const session = await ok(authenticateSession(deps)(signedIn.sessionToken));
  const app = await ok(createApp(deps)({ userId: session.userId, name: appName }));
  return { sessionToken: signedIn.sessionToken, session, app };
};
