import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import * as tt from 'io-ts';
import { decodeJwt } from 'jose';
import {
  AccessChanged,
  ApiAccessChanged,
  AppChanged,
  SigningKeysWithdrawn,
  TokenRevoked,
} from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { EXIT } from '../../src/adapters/cli/admin-cli.js';
import { introspectToken } from '../../src/application/introspect-token.js';
import { signIn } from '../../src/application/sign-in.js';
import { adminCli } from '../support/admin-cli.js';
import { KEY_ENCRYPTION_KEYS, startHarness, type Harness } from '../support/harness.js';
import { valueOf } from '../support/port-task.js';

/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call --
   the CLI's JSON output is read loosely here and asserted field by field. */

describe('auth: admin CLI', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('auth_admin_cli');
  });
  after(() => h.close());

  const { admin, ok } = adminCli(() => h.deps);

  it('sets up an account, a site, a user, a membership, an app and a token that reaches the site', async () => {
    const { account } = await ok(['create-account', '--name', 'Acme']);
    assert.equal(account.api_access, true);
    const { site } = await ok(['create-site', '--account', account.id, '--name', 'Production']);
    assert.equal(typeof site.id, 'number');
    const created = await ok(['create-user', '--account', account.id, '--email', 'Ops@Acme.test'], {
      ESIGN_USER_PASSWORD: 'a long enough password',
    });
    assert.equal(created.user.email, 'ops@acme.test');
    assert.equal(created.password, undefined, 'a password given is not echoed');
    assert.ok(
      E.isRight(await signIn(h.deps)({ email: 'ops@acme.test', password: 'a long enough password' })()),
    );
    const { membership } = await ok(['add-member', '--site', String(site.id), '--user', 'ops@acme.test']);
    assert.deepEqual(membership, { site_id: site.id, user_id: created.user.id, added: true });
    const { app, client_secret } = await ok([
      'create-app',
      '--user',
      created.user.id,
      '--name',
      'Deploys',
      '--with-secret',
    ]);
    assert.equal(app.has_client_secret, true);
    assert.match(client_secret, /^ecs_/);
    const token = await ok(['create-token', '--app', app.id, '--name', 'k8s job', '--expires-in-days', '7']);
    assert.equal(token.token.origin, 'admin');
    assert.equal(token.token.expires_in, 7 * 86_400);
    assert.equal(decodeJwt(token.access_token).jti, token.token.id);
    const answer = await valueOf(introspectToken(h.deps)(token.token.id));
    assert.ok(answer.active);
    assert.deepEqual(answer.sites, [{ id: site.id, name: 'Production', default_locale: null }]);

    const { tokens } = await ok(['list', 'tokens', '--user', 'ops@acme.test']);
    assert.deepEqual(
      tokens.map((t: { id: string }) => t.id),
      [token.token.id],
    );
    assert.equal(
      (await ok(['list', 'members', '--site', String(site.id)])).members[0].email,
      'ops@acme.test',
    );
    assert.equal((await ok(['list', 'sites', '--user', 'ops@acme.test'])).sites.length, 1);
    assert.equal((await ok(['list', 'apps', '--user', 'ops@acme.test'])).apps.length, 1);
    assert.ok((await ok(['list', 'accounts'])).accounts.length >= 1);
    assert.equal((await ok(['list', 'users', '--account', account.id])).users.length, 1);

    const suspended = (await ok(['disable-app', '--app', app.id])).app.disabled_at;
    assert.notEqual(suspended, null);
    assert.deepEqual(await valueOf(introspectToken(h.deps)(token.token.id)), { active: false });
    assert.equal((await ok(['disable-app', '--app', app.id])).app.disabled_at, suspended, 'the first time');
    assert.equal((await ok(['enable-app', '--app', app.id])).app.disabled_at, null);
    assert.equal((await valueOf(introspectToken(h.deps)(token.token.id))).active, true);
    // ADR 3120: the owner is told of each change, in its transaction; the repeat told nobody.
    const appTold = await db.any(
      h.pool,
      tt.type({ envelope: AppChanged }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.app_changed' AND envelope->>'aggregate_id' = ${app.id} ORDER BY seq`,
    );
    assert.deepEqual(
      appTold.map(({ envelope: { data } }) => [data.email, data.app_name, data.change]),
      [
        ['ops@acme.test', 'Deploys', 'disabled'],
        ['ops@acme.test', 'Deploys', 'enabled'],
      ],
    );

    await ok(['remove-member', '--site', String(site.id), '--user', created.user.id]);
    assert.deepEqual(
      ((await valueOf(introspectToken(h.deps)(token.token.id))) as { sites: unknown[] }).sites,
      [],
    );
    const { token: revoked } = await ok(['revoke-token', '--token', token.token.id]);
    assert.equal(revoked.state, 'revoked');
    assert.deepEqual(await valueOf(introspectToken(h.deps)(token.token.id)), { active: false });
    await ok(['revoke-token', '--token', token.token.id]);
    // ADR 3120: the token's user is told once, in the revocation's transaction.
    const tokenTold = await db.any(
      h.pool,
      tt.type({ envelope: TokenRevoked }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.token_revoked' AND envelope->>'aggregate_id' = ${token.token.id}`,
    );
    assert.deepEqual(
      tokenTold.map(({ envelope: { data } }) => [data.email, data.app_name, data.origin]),
      [['ops@acme.test', 'Deploys', 'admin']],
    );
  });

  it('generates and prints a password when none is given', async () => {
    const { account } = await ok(['create-account', '--name', 'Generated', '--api-access', 'false']);
    assert.equal(account.api_access, false);
    const created = await ok(['create-user', '--account', account.id, '--email', 'gen@acme.test']);
    assert.ok(typeof created.password === 'string' && created.password.length >= 20);
    const reset = await ok([
      'set-password',
      '--user',
      'gen@acme.test',
      '--password',
      'another long password',
    ]);
    assert.equal(reset.password, undefined);
    assert.equal(
      (await ok(['set-api-access', '--account', account.id, '--enabled', 'true'])).account.api_access,
      true,
    );
    assert.ok(
      E.isRight(await signIn(h.deps)({ email: 'gen@acme.test', password: 'another long password' })()),
    );
    assert.notEqual((await ok(['disable-user', '--user', 'gen@acme.test'])).user.disabled_at, null);
    assert.equal((await ok(['enable-user', '--user', 'gen@acme.test'])).user.disabled_at, null);
  });

  it('gives an account whose only admin left a new one (set-admin, ADR 3060), keeping an enabled admin', async () => {
    const { account } = await ok(['create-account', '--name', 'Left']);
    const first = await ok(['create-user', '--account', account.id, '--email', 'first@left.test']);
    const second = await ok(['create-user', '--account', account.id, '--email', 'second@left.test']);
    assert.deepEqual([first.user.account_admin, second.user.account_admin], [true, false]);
    await ok(['disable-user', '--user', 'first@left.test']);
    const made = await ok(['set-admin', '--user', 'second@left.test', '--admin', 'true']);
    assert.equal(made.user.account_admin, true);
    const last = await admin(['set-admin', '--user', 'second@left.test', '--admin', 'false']);
    assert.equal(last.json.error.code, 'last_admin', 'the first admin is disabled: none would be left');
    assert.notEqual(last.code, EXIT.ok);
    assert.equal(
      (await ok(['set-admin', '--user', 'first@left.test', '--admin', 'false'])).user.account_admin,
      false,
    );
    assert.equal(
      (await admin(['set-admin', '--user', 'second@left.test', '--admin', 'maybe'])).code,
      EXIT.usage,
    );

    // ADR 3120: each change is e-mailed, in its transaction, to the user and the enabled admins.
    const told = await db.any(
      h.pool,
      tt.type({ envelope: AccessChanged }),
      sql.unsafe`
      SELECT envelope FROM outbox
      WHERE type = 'account.access_changed' AND envelope->'data'->>'account_name' = 'Left'
      ORDER BY seq`,
    );
    assert.deepEqual(
      told.map(({ envelope: { data } }) => [data.email, data.change, data.user, data.by, data.by_operator]),
      [
        ['first@left.test', 'disabled', 'first@left.test', 'operator', true],
        ['second@left.test', 'made_admin', 'second@left.test', 'operator', true],
        ['second@left.test', 'removed_admin', 'first@left.test', 'operator', true],
        ['first@left.test', 'removed_admin', 'first@left.test', 'operator', true],
      ],
      'the refused and the usage-error commands wrote nothing',
    );

    // Turned off, every enabled user of the account is told; set again, nobody.
    await ok(['set-api-access', '--account', account.id, '--enabled', 'false']);
    await ok(['set-api-access', '--account', account.id, '--enabled', 'false']);
    const apiTold = await db.any(
      h.pool,
      tt.type({ envelope: ApiAccessChanged }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.api_access_changed' AND envelope->>'aggregate_id' = ${account.id}`,
    );
    assert.deepEqual(
      apiTold.map(({ envelope: { data } }) => data),
      [{ email: 'second@left.test', account_name: 'Left', enabled: false }],
    );
  });

  it('rotates the signing key and lists the keys with their states', async () => {
    const rotated = await ok(['rotate-key', '--activate-in-seconds', '0']);
    const { keys } = await ok(['list', 'keys']);
    const mine = keys.find((k: { kid: string }) => k.kid === rotated.key.kid);
    assert.equal(mine.state, 'signing');
    assert.equal(mine.published, true);
    const upcoming = await ok(['rotate-key']);
    assert.equal(Date.parse(upcoming.key.activates_at) - Date.parse(upcoming.key.created_at), 120_000);
    // Two users with live tokens signed by the keys about to be withdrawn; one is disabled.
    const { account } = await ok(['create-account', '--name', 'Keyholders']);
    const holders: Record<string, string> = {};
    for (const email of ['two@keys.test', 'off@keys.test']) {
      const { user } = await ok(['create-user', '--account', account.id, '--email', email]);
      const { app } = await ok(['create-app', '--user', user.id, '--name', `App of ${email}`]);
      for (let i = 0; i < (email === 'two@keys.test' ? 2 : 1); i += 1)
        await ok(['create-token', '--app', app.id]);
      holders[email] = user.id;
    }
    await ok(['disable-user', '--user', 'off@keys.test']);
    const leaked = await ok(['rotate-key', '--revoke-previous']);
    assert.ok(leaked.revoked.includes(rotated.key.kid) && leaked.revoked.includes(upcoming.key.kid));
    // Each enabled holder is told once, with how many of their tokens stopped (ADR 0301).
    const withdrawn = await db.any(
      h.pool,
      tt.type({ envelope: SigningKeysWithdrawn }),
      sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.signing_keys_withdrawn'`,
    );
    const told = withdrawn.map(({ envelope: e }) => [e.aggregate_id, e.data.email, e.data.tokens]);
    assert.deepEqual(
      told.filter(([id]) => Object.values(holders).includes(id as string)),
      [[holders['two@keys.test'], 'two@keys.test', 2]],
    );
    const after = (await ok(['list', 'keys'])).keys as Array<{
      kid: string;
      state: string;
      published: boolean;
    }>;
    assert.deepEqual(
      after.filter((k) => k.published).map((k) => k.kid),
      [leaked.key.kid],
    );
  });

  it('answers usage errors (64) and missing records (65) with one JSON error object', async () => {
    const cases: Array<[string[], number, string]> = [
      [['nonsense'], EXIT.usage, 'usage'],
      [['create-account'], EXIT.usage, 'usage'],
      [['create-account', '--name', 'x', '--bogus'], EXIT.usage, 'usage'],
      [['add-member', '--site', 'one', '--user', 'x@y.z'], EXIT.usage, 'usage'],
      [['list', 'everything'], EXIT.usage, 'usage'],
      [['rotate-key', '--revoke-previous', '--activate-in-seconds', '5'], EXIT.usage, 'usage'],
      [['create-site', '--account', 'nope', '--name', 'x'], EXIT.data, 'not_found'],
      [['add-member', '--site', '999999', '--user', 'nobody@acme.test'], EXIT.data, 'not_found'],
      [['create-token', '--app', '00000000-0000-4000-8000-000000000000'], EXIT.data, 'not_found'],
      [['revoke-token', '--token', 'nope'], EXIT.data, 'not_found'],
    ];
    for (const [argv, code, errorCode] of cases) {
      const result = await admin(argv);
      assert.equal(result.code, code, argv.join(' '));
      assert.equal(result.json.error.code, errorCode, argv.join(' '));
      assert.ok(result.err.length > 0, 'says why on stderr');
    }
    const weak = await admin([
      'create-user',
      '--account',
      (await ok(['create-account', '--name', 'W'])).account.id,
      '--email',
      'w@acme.test',
      '--password',
      'short',
    ]);
    assert.equal(weak.json.error.code, 'weak_password');
  });

  it('prints exactly one JSON object on stdout as a process, logs and errors on stderr', async function () {
    // Two child processes compile TypeScript on start: seconds each on a busy machine.
    this.timeout(90_000);
    const entry = fileURLToPath(new URL('../../src/adapters/cli/admin.ts', import.meta.url));
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [entry, ...args], {
          env: { ...process.env, DATABASE_URL: h.database.url, KEY_ENCRYPTION_KEYS, LOG_LEVEL: 'debug' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.once('error', reject);
        child.once('exit', (code) => resolve({ code, stdout, stderr }));
      });
    const created = await run(['create-account', '--name', 'From a process']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).account.name, 'From a process');
    assert.ok(created.stderr.includes('"service":"auth-admin"'), 'debug logs go to stderr');
    const failed = await run(['create-site', '--account', 'nope', '--name', 'x']);
    assert.equal(failed.code, 65);
    assert.equal(JSON.parse(failed.stdout).error.code, 'not_found');
  });
});
