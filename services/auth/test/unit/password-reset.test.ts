import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { PasswordChangedNotice, PasswordResetRequested } from '@esign/contracts';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccount, setApiAccess } from '../../src/application/create-account.js';
import {
  PASSWORD_RESET_TTL_SECONDS,
  requestPasswordReset,
  resetPassword,
} from '../../src/application/password-reset.js';
import { signIn } from '../../src/application/sign-in.js';
import { changeOwnPassword, createUser, setUserDisabled } from '../../src/application/users.js';
import { right } from '../support/port-task.js';
import { fakeWorld } from '../support/fakes.js';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a new and longer passphrase';

const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  const user = await right(
    createUser(deps)({ accountId: account.id, email: 'dev@acme.test', password: PASSWORD }),
  );
  /** The links e-mailed so far: the reset events in the outbox. */
  const links = () => world.state.outbox.filter((e) => PasswordResetRequested.is(e));
  const ask = (email = 'DEV@acme.test') => requestPasswordReset(deps)(email)();
  /** The token of the last link e-mailed, read from the event's URL. */
  const lastToken = () => {
    const event = links().at(-1);
    assert.ok(event, 'an e-mail was asked for');
    return new URL(event.data.reset_url).searchParams.get('token')!;
  };
  const reset = (token: string, newPassword = NEW_PASSWORD) => resetPassword(deps)({ token, newPassword })();
  const signsIn = async (password: string) =>
    E.isRight(await signIn(deps)({ email: 'dev@acme.test', password })());
  return { world, deps, account, user, links, ask, lastToken, reset, signsIn };
};

describe('auth use cases: a forgotten password', () => {
  it('e-mails a link to the web application, through the outbox, and the link sets a new password once', async () => {
    const s = await seed();
    assert.deepEqual(await s.ask(), E.right(undefined));
    const event = s.links()[0]!;
    assert.ok(PasswordResetRequested.is(event), 'the event has its contract’s shape');
    assert.equal(event.data.email, 'dev@acme.test');
    assert.match(event.data.reset_url, /^https:\/\/esign\.example\/app\/reset-password\?token=prt_/);
    assert.equal(
      Date.parse(event.data.expires_at) - s.world.now().getTime(),
      PASSWORD_RESET_TTL_SECONDS * 1000,
    );
    assert.equal(event.aggregate_id, s.user.id);
    const session = await right(signIn(s.deps)({ email: 'dev@acme.test', password: PASSWORD }));

    const token = s.lastToken();
    assert.deepEqual(
      await s.reset(token),
      E.right({ sessionsEnded: 1, tokensRevoked: 0, clientSecretsRemoved: 0 }),
    );
    assert.equal(await s.signsIn(NEW_PASSWORD), true);
    assert.equal(await s.signsIn(PASSWORD), false);
    assert.ok(E.isLeft(await authenticateSession(s.deps)(session.sessionToken)()), 'sessions end');
    assert.deepEqual(
      s.world.state.outbox.filter((e) => PasswordChangedNotice.is(e)).map((e) => e.data),
      [{ email: 'dev@acme.test', by: 'reset_link' }],
      'the user is told their password changed',
    );
    assert.deepEqual(
      await s.reset(token, 'yet another long passphrase'),
      E.left({ _tag: 'InvalidResetToken' }),
    );
  });

  it('answers alike for an unknown address, a disabled user and an account without API access, sending nothing', async () => {
    const s = await seed();
    const other = await right(createAccount(s.deps)({ name: 'NoApi', apiAccess: true }));
    await right(createUser(s.deps)({ accountId: other.id, email: 'noapi@acme.test', password: PASSWORD }));
    await right(setApiAccess(s.deps)({ accountId: other.id, enabled: false }));
    await right(setUserDisabled(s.deps)({ userId: s.user.id, disabled: true }));
    s.world.state.outbox.length = 0; // the operator's disable-user was e-mailed (ADR 3120)
    for (const email of ['nobody@acme.test', 'dev@acme.test', 'noapi@acme.test'])
      assert.deepEqual(await s.ask(email), E.right(undefined), email);
    assert.equal(s.world.state.outbox.length, 0, 'nothing at all');
  });

  it('keeps only the newest link working, and sends at most 3 an hour', async () => {
    const s = await seed();
    await s.ask();
    const first = s.lastToken();
    await s.ask();
    const second = s.lastToken();
    await s.ask();
    await s.ask();
    assert.equal(s.links().length, 3, 'the fourth in the hour sends nothing');
    assert.deepEqual(await s.reset(first), E.left({ _tag: 'InvalidResetToken' }));
    assert.deepEqual(await s.reset(second), E.left({ _tag: 'InvalidResetToken' }));
    s.world.advance(3601);
    await s.ask();
    assert.equal(s.links().length, 4, 'an hour later, one more');
    assert.ok(E.isRight(await s.reset(s.lastToken())));
  });

  it('refuses an expired link, a link after any password change, and a made-up one', async () => {
    const s = await seed();
    await s.ask();
    s.world.advance(PASSWORD_RESET_TTL_SECONDS);
    assert.deepEqual(await s.reset(s.lastToken()), E.left({ _tag: 'InvalidResetToken' }));

    s.world.advance(3600);
    await s.ask();
    const token = s.lastToken();
    const session = await right(signIn(s.deps)({ email: 'dev@acme.test', password: PASSWORD }));
    const user = await right(authenticateSession(s.deps)(session.sessionToken));
    await right(
      changeOwnPassword(s.deps)({ session: user, currentPassword: PASSWORD, newPassword: NEW_PASSWORD }),
    );
    assert.deepEqual(await s.reset(token), E.left({ _tag: 'InvalidResetToken' }));
    assert.deepEqual(await s.reset('prt_made-up'), E.left({ _tag: 'InvalidResetToken' }));
  });

  it('checks the new password by the rules, naming new_password, and leaves the link usable', async () => {
    const s = await seed();
    await s.ask();
    const token = s.lastToken();
    for (const [candidate, reason] of [
      ['short', 'must be at least 12 characters'],
      ['dev@acme.test', 'must not be the e-mail address'],
    ] as const)
      assert.deepEqual(
        await s.reset(token, candidate),
        E.left({ _tag: 'WeakPassword', reason, field: 'new_password' }),
      );
    assert.ok(E.isRight(await s.reset(token)));
  });

  it('forgets the failed sign-ins of the address, so a user slowed down by guesses signs in at once', async () => {
    const s = await seed();
    const from = (client: string, password: string) =>
      signIn(s.deps)({ email: 'dev@acme.test', password, client })();
    // Guesses from many addresses: past the per-address cap (20 free attempts, ADR 1303).
    for (let i = 0; i < 22; i++) await from(`203.0.113.${i}`, 'a guess');
    const slowed = await from('198.51.100.7', PASSWORD);
    assert.ok(E.isLeft(slowed) && slowed.left._tag === 'Throttled', JSON.stringify(slowed));
    await s.ask();
    assert.ok(E.isRight(await s.reset(s.lastToken())));
    assert.ok(E.isRight(await from('198.51.100.7', NEW_PASSWORD)), 'the user’s own client');
  });
});
