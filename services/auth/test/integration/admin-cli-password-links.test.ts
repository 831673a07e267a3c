import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { PasswordResetRequested } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import * as tt from 'io-ts';
import { EXIT } from '../../src/adapters/cli/admin-cli.js';
import { resetPassword } from '../../src/application/password-reset.js';
import { signIn } from '../../src/application/sign-in.js';
import { adminCli } from '../support/admin-cli.js';
import { startHarness, type Harness } from '../support/harness.js';

/* eslint-disable @typescript-eslint/no-unsafe-argument --
   the CLI's JSON output is read loosely here and asserted field by field. */

const WEEK_MS = 7 * 86_400_000;

/**
 * ADR 3160 against real Postgres: an operator makes a user who chooses their own password
 * from an e-mailed link (`create-user --send-link`), or sends any user such a link
 * (`send-password-link`); the link is the user's own reset link, good for a week.
 */
describe('auth: admin CLI, password links an operator sends (ADR 3160)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('auth_admin_links');
  });
  after(() => h.close());

  const { admin, ok } = adminCli(() => h.deps);
  const links = async (userId: string) =>
    (
      await db.any(
        h.pool,
        tt.type({ envelope: tt.unknown }),
        sql.unsafe`SELECT envelope FROM outbox WHERE type = 'account.password_reset_requested'
                   AND envelope->>'aggregate_id' = ${userId} ORDER BY seq`,
      )
    ).map((row) => {
      const decoded = PasswordResetRequested.decode(row.envelope);
      assert.ok(E.isRight(decoded), 'the shared codec reads it');
      return decoded.right;
    });
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

  it('makes a user who chooses their own password from the e-mailed link, never printed', async () => {
    const { account } = await ok(['create-account', '--name', 'Acme Legal']);
    const made = await ok([
      'create-user',
      '--account',
      account.id,
      '--email',
      'Welcome@Acme.test',
      '--send-link',
    ]);
    assert.equal(made.password, undefined, 'no password in the terminal');
    const until = Date.parse(made.link_sent.expires_at);
    assert.ok(Math.abs(until - (Date.now() + WEEK_MS)) < 60_000, 'a week, as an invitation');
    const [link] = await links(made.user.id);
    assert.deepEqual(
      { ...link!.data, reset_url: 'x' },
      {
        email: 'welcome@acme.test',
        reset_url: 'x',
        expires_at: made.link_sent.expires_at,
        by_operator: true,
        welcome: { account_name: 'Acme Legal' },
      },
    );
    const chosen = 'a passphrase of my own';
    assert.ok(
      E.isRight(await resetPassword(h.deps)({ token: tokenOf(link!.data.reset_url), newPassword: chosen })()),
    );
    assert.ok(E.isRight(await signIn(h.deps)({ email: 'welcome@acme.test', password: chosen })()));
  });

  it('sends any enabled user a new link, not a welcome; refuses a disabled one and a password given with --send-link', async () => {
    const { account } = await ok(['create-account', '--name', 'Links']);
    const { user } = await ok(['create-user', '--account', account.id, '--email', 'lost@acme.test']);
    const sent = await ok(['send-password-link', '--user', 'lost@acme.test']);
    assert.equal(sent.user.id, user.id);
    const [link] = await links(user.id);
    assert.equal(link!.data.by_operator, true);
    assert.equal(link!.data.welcome, undefined);

    await ok(['disable-user', '--user', 'lost@acme.test']);
    const disabled = await admin(['send-password-link', '--user', 'lost@acme.test']);
    assert.equal(disabled.code, EXIT.data);
    assert.equal(disabled.json.error.code, 'user_disabled');
    assert.equal((await links(user.id)).length, 1, 'nothing sent');

    const both = ['create-user', '--account', account.id, '--email', 'both@acme.test', '--send-link'];
    assert.equal((await admin([...both, '--password', 'a long enough password'])).code, EXIT.usage);
    assert.equal((await admin(both, { ESIGN_USER_PASSWORD: 'a long enough password' })).code, EXIT.usage);
    assert.equal(
      (await admin(['list', 'users', '--account', account.id])).json.users.length,
      1,
      'nobody made',
    );
  });

  it('says the user was made and how to send the link when the link cannot be written', async () => {
    const { account } = await ok(['create-account', '--name', 'Half done']);
    const broken = adminCli(() => ({
      ...h.deps,
      passwordResets: {
        ...h.deps.passwordResets,
        issue: () => () => Promise.reject(new Error('the database went away')),
      },
    }));
    const run = await broken.admin([
      'create-user',
      '--account',
      account.id,
      '--email',
      'half@acme.test',
      '--send-link',
    ]);
    assert.equal(run.code, EXIT.failure);
    assert.equal(run.json.user.email, 'half@acme.test', 'what was done is printed');
    assert.deepEqual(run.json.error, {
      code: 'link_not_sent',
      message:
        'the user was made, but no link was sent (the database went away); send it with: send-password-link --user half@acme.test',
    });
    assert.match(run.err, /send-password-link --user half@acme\.test/);
    // And that command finishes the job.
    const sent = await ok(['send-password-link', '--user', 'half@acme.test']);
    assert.equal(sent.user.id, run.json.user.id);
    assert.equal((await links(run.json.user.id)).length, 1);
  });
});
