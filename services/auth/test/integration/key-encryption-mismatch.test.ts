import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  AUTH_ADMIN_ENTRY,
  createTestDatabase,
  repoRoot,
  startService,
  type RunningService,
  type TestDatabase,
} from '@esign/testing';

const INTERNAL_SECRET = 'test-internal-secret-0123456789abcdef';
const FIRST_CLONE = 'k1:first-clone-key-encryption-secret-0123456789';
const SECOND_CLONE = 'k1:second-clone-key-encryption-secret-987654321';

/**
 * Issue #25: a second clone's `npm start` against the databases an earlier clone created
 * (same names on the same Postgres) brings its own KEY_ENCRYPTION_KEYS, which cannot
 * open the signing key the first clone sealed. Auth must stop at start-up saying what to
 * do, and what it says must work.
 */
describe('auth: start-up with key-encryption keys that do not fit the database (built process)', function () {
  this.timeout(300_000);
  let database: TestDatabase;
  const started: RunningService[] = [];

  before(async () => {
    database = await createTestDatabase('auth_kek');
  });
  after(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await database.drop();
  });

  const startAuth = async (keys: string) => {
    const service = await startService(
      'auth',
      {
        DATABASE_URL: database.url,
        KEY_ENCRYPTION_KEYS: keys,
        INTROSPECTION_SECRET: INTERNAL_SECRET,
        LOG_LEVEL: 'info',
      },
      { timeoutMs: 120_000 },
    );
    started.push(service);
    return service;
  };

  const admin = async (keys: string, ...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, KEY_ENCRYPTION_KEYS: keys };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [AUTH_ADMIN_ENTRY, ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stdout };
  };

  it('stops with exit code 78 and advice, and starts once the advice is followed', async () => {
    // The first clone sets the database up: its signing key sealed under its own k1.
    const first = await startAuth(FIRST_CLONE);
    assert.equal(await first.stop(), 0);

    await assert.rejects(startAuth(SECOND_CLONE), (error: Error) => {
      assert.match(error.message, /auth exited during start-up \(78\)/);
      assert.match(
        error.message,
        /KEY_ENCRYPTION_KEYS cannot open the signing key stored in the database t_auth_kek_/,
      );
      assert.match(
        error.message,
        /copy \.data\/local-secrets\.json from the clone that created the databases/,
      );
      assert.match(error.message, /rotate-key --revoke-previous/);
      assert.doesNotMatch(error.message, /"stack"/, 'advice, not a stack trace');
      return true;
    });

    // The admin CLI says the same when a command needs the key.
    const { account } = JSON.parse(
      (await admin(SECOND_CLONE, 'create-account', '--name', 'Acme')).stdout,
    ) as {
      account: { id: string };
    };
    const email = 'ops@acme.test';
    assert.equal(
      (await admin(SECOND_CLONE, 'create-user', '--account', account.id, '--email', email)).code,
      0,
    );
    const { app } = JSON.parse(
      (await admin(SECOND_CLONE, 'create-app', '--user', email, '--name', 'x')).stdout,
    ) as {
      app: { id: string };
    };
    const token = await admin(SECOND_CLONE, 'create-token', '--app', app.id);
    assert.equal(token.code, 1);
    const answer = JSON.parse(token.stdout) as { error: { code: string; message: string } };
    assert.equal(answer.error.code, 'key_encryption_mismatch');
    assert.match(answer.error.message, /rotate-key --revoke-previous/);

    // Listing the first clone's key after this clone's own opens the old key: it starts.
    const both = await startAuth(`${SECOND_CLONE.replace('k1:', 'k2:')},${FIRST_CLONE}`);
    assert.equal(await both.stop(), 0);

    // Or, the old keys being lost: a new signing key that this clone's keys seal.
    const rotated = await admin(SECOND_CLONE, 'rotate-key', '--revoke-previous');
    assert.equal(rotated.code, 0, rotated.stdout);
    const second = await startAuth(SECOND_CLONE);
    assert.equal((await fetch(`${second.url}/.well-known/jwks.json`)).status, 200);
  });
});
