import assert from 'node:assert/strict';
import { testLogger } from '@esign/testing';
import { EXIT } from '../../src/adapters/cli/admin-cli.js';
import { openAdminSession, type AdminSession } from '../../src/adapters/cli/admin-session.js';
import { KEY_ENCRYPTION_KEYS, startHarness, type Harness } from '../support/harness.js';

/* eslint-disable @typescript-eslint/no-explicit-any --
   the commands' JSON is read loosely here and asserted field by field. */

describe("auth: admin session (the CLI's commands over one pool, as npm start's demo runs them)", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('auth_admin_session');
  });
  after(() => h.close());

  const run = async (session: AdminSession, argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const out: any[] = [];
    const err: string[] = [];
    const code = await session.run(argv, {
      out: (json) => out.push(json),
      err: (line) => err.push(line),
      env,
    });
    assert.equal(out.length, 1, `exactly one JSON object, got ${out.length}`);
    return { code, json: out[0], err: err.join('\n') };
  };

  it('runs one command after another in one session; a refused one leaves it open', async () => {
    const opened = await openAdminSession(
      { DATABASE_URL: h.database.url, KEY_ENCRYPTION_KEYS },
      testLogger(),
    );
    assert.ok('session' in opened, JSON.stringify(opened));
    try {
      const account = await run(opened.session, ['create-account', '--name', 'Demo']);
      assert.equal(account.code, EXIT.ok, account.err);
      const refused = await run(opened.session, ['create-site', '--account', 'nope', '--name', 'x']);
      assert.equal(refused.code, EXIT.data);
      assert.equal(refused.json.error.code, 'not_found');
      const site = await run(opened.session, [
        'create-site',
        '--account',
        String(account.json.account.id),
        '--name',
        'Demo site',
      ]);
      assert.equal(site.code, EXIT.ok, site.err);
      // Each command reads its own environment: the password is the one this command was given.
      const user = await run(
        opened.session,
        ['create-user', '--account', String(account.json.account.id), '--email', 'demo@session.test'],
        { ESIGN_USER_PASSWORD: 'a long enough password' },
      );
      assert.equal(user.code, EXIT.ok, user.err);
      assert.equal(user.json.password, undefined, 'a password given is not echoed');
    } finally {
      await opened.session.close();
    }
  });

  it('answers a missing database and a bad setting as failures to print, not as errors', async () => {
    const missing = new URL(h.database.url);
    missing.pathname = '/auth_admin_session_no_such_database';
    const noDatabase = await openAdminSession(
      { DATABASE_URL: missing.toString(), KEY_ENCRYPTION_KEYS },
      testLogger(),
    );
    assert.ok('failure' in noDatabase);
    assert.equal(noDatabase.failure.code, 'database_unavailable');
    assert.match(
      noDatabase.failure.message,
      /auth_admin_session_no_such_database does not exist: run `npm run migrate`/,
    );
    const badSetting = await openAdminSession(
      { DATABASE_URL: 'not a url', KEY_ENCRYPTION_KEYS },
      testLogger(),
    );
    assert.ok('failure' in badSetting);
    assert.equal(badSetting.failure.code, 'invalid_configuration');
    assert.match(badSetting.failure.message, /DATABASE_URL/);
  });
});
