// Every way a database is migrated outside start-up: `npm run migrate` (scripts/migrate.mjs)
// and the per-service entry points the Kubernetes Job and docker-compose run
// (`node services/<name>/dist/src/migrate.js`). Each must leave a service's database with
// its own tables and the messaging tables (outbox, inbox) the relay and consumers need.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, infra, uniqueSuffix } from '@esign/testing';
import pg from 'pg';
import { repoRoot } from './support/paths.js';

const SERVICES = ['auth', 'requests', 'notifier'] as const;
/** One table of each service's own migrations. */
const OWN_TABLE = { auth: 'accounts', requests: 'requests', notifier: 'deliveries' } as const;

const runNode = (args: string[], env: Record<string, string>, inherit = true) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    // Without `inherit`, the child sees `env` alone (and PATH): what a container is given.
    const childEnv: NodeJS.ProcessEnv = inherit
      ? { ...process.env, ...env }
      : { PATH: process.env.PATH ?? '', ...env };
    // As deployed: compiled JavaScript, plain node.
    delete childEnv.NODE_OPTIONS;
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });

const tablesOf = async (url: string): Promise<string[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    return result.rows.map((r) => r.name);
  } finally {
    await client.end();
  }
};

const assertMigrated = async (url: string, service: (typeof SERVICES)[number]) => {
  const tables = await tablesOf(url);
  for (const table of [OWN_TABLE[service], 'outbox', 'inbox'])
    assert.ok(tables.includes(table), `${service}: no ${table} table (has ${tables.sort().join(', ')})`);
};

describe('deploy: migrations create the messaging tables as well as the service’s own', function () {
  this.timeout(120_000);

  it('npm run migrate: every service database', async () => {
    const base = new URL(infra().databaseUrl);
    base.pathname = '';
    const postgresBase = base.toString().replace(/\/$/, '');
    const prefix = `t_migrate_${uniqueSuffix()}_`;
    const dataDir = mkdtempSync(join(tmpdir(), 'esign-migrate-'));
    try {
      const { code, output } = await runNode([join(repoRoot, 'scripts', 'migrate.mjs')], {
        POSTGRES_URL: postgresBase,
        ESIGN_DATABASE_PREFIX: prefix,
        ESIGN_DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      });
      assert.equal(code, 0, output);
      for (const service of SERVICES) await assertMigrated(`${postgresBase}/${prefix}${service}`, service);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: infra().databaseUrl });
      await admin.connect();
      for (const service of SERVICES)
        await admin.query(
          `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(`${prefix}${service}`)} WITH (FORCE)`,
        );
      await admin.end();
    }
  });

  for (const service of SERVICES) {
    it(`L12: node services/${service}/dist/src/migrate.js with its database URL alone (the Kubernetes Job, docker-compose)`, async () => {
      const database = await createTestDatabase(`migrate_${service}`);
      try {
        const { code, output } = await runNode(
          [join(repoRoot, 'services', service, 'dist', 'src', 'migrate.js')],
          {
            DATABASE_URL: database.url,
            // L12: nothing else, as the Job and compose give it.
            LOG_LEVEL: 'warn',
          },
          false,
        );
        assert.equal(code, 0, output);
        await assertMigrated(database.url, service);
      } finally {
        await database.drop();
      }
    });
  }
});
