import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { INVITATION_TTL_SECONDS, InvitationAccepted, UserInvited } from '@esign/contracts';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import {
  INVITATIONS_PER_HOUR,
  listInvitations,
  revokeInvitation,
} from '../../src/application/invitations.js';
import { signIn } from '../../src/application/sign-in.js';
import { setUserDisabled } from '../../src/application/users.js';
import { INVITEE_PASSWORD, PAGE, seed } from '../support/invitations-world.js';
import { left, right } from '../support/port-task.js';

describe('auth use cases: account admins invite people by e-mail', () => {
  it('e-mails a single-use link; accepting makes a user of the account, on the Sites chosen, who signs in', async () => {
    const s = await seed();
    const made = await right(() => s.invite('Ada@Example.test', [s.production.id]));
    assert.equal(made.email, 'ada@example.test', 'kept lower-case');
    assert.deepEqual(made.siteIds, [s.production.id]);
    assert.equal(made.invitedBy, 'admin@acme.test');
    assert.equal(made.expiresAt.getTime() - s.world.now().getTime(), INVITATION_TTL_SECONDS * 1000);

    const event = s.sent()[0]!;
    assert.ok(UserInvited.is(event), 'the event has its contract’s shape');
    assert.deepEqual(
      { ...event.data, accept_url: event.data.accept_url.replace(/token=.*/, 'token=…') },
      {
        email: 'ada@example.test',
        account_name: 'Acme',
        invited_by: 'admin@acme.test',
        accept_url: 'https://esign.example/app/accept-invitation?token=…',
        expires_at: made.expiresAt.toISOString(),
        admin: false,
      },
    );
    assert.equal(event.aggregate_id, made.id);
    assert.deepEqual(
      (await s.open()).map((i) => i.id),
      [made.id],
    );

    const token = s.tokenOf(event);
    assert.ok(token.startsWith('inv_'));
    const accepted = await right(() => s.accept(token));
    assert.deepEqual(accepted.account, { id: s.account.id, name: 'Acme' });
    assert.deepEqual(accepted.user, { id: accepted.user.id, email: 'ada@example.test', admin: false });
    assert.deepEqual(accepted.siteIds, [s.production.id]);
    const ada = await right(signIn(s.deps)({ email: 'ada@example.test', password: INVITEE_PASSWORD }));
    const session = await right(authenticateSession(s.deps)(ada.sessionToken));
    assert.equal(session.accountId, s.account.id);
    assert.equal(session.accountAdmin, false, 'an invited user is not an admin');
    assert.deepEqual(
      s.world.state.members.filter((m) => m.userId === accepted.user.id).map((m) => m.siteId),
      [s.production.id],
    );

    assert.deepEqual(await left(() => s.accept(token, 'yet another passphrase')), {
      _tag: 'InvalidInvitationToken',
    });
    assert.deepEqual(await s.open(), [], 'an accepted invitation is no longer open');
    const told = s.world.state.outbox.filter((e) => InvitationAccepted.is(e));
    assert.deepEqual(
      told.map((e) => [e.aggregate_id, e.data]),
      [
        [
          made.id,
          { email: 'admin@acme.test', account_name: 'Acme', joined: 'ada@example.test', admin: false },
        ],
      ],
      'the inviting admin is told, once',
    );
  });

  it('tells nobody of the acceptance when the inviting admin was disabled meanwhile', async () => {
    const s = await seed();
    await right(() => s.invite('ada@example.test'));
    await right(setUserDisabled(s.deps)({ userId: s.admin.userId, disabled: true }));
    await right(() => s.accept(s.tokenOf(s.sent()[0])));
    assert.deepEqual(
      s.world.state.outbox.filter((e) => InvitationAccepted.is(e)),
      [],
    );
  });

  it('is for account admins only', async () => {
    const s = await seed();
    const member = await s.sessionOf('member@acme.test');
    assert.deepEqual(await left(() => s.invite('ada@example.test', [], member)), {
      _tag: 'AccountAdminRequired',
    });
    assert.deepEqual(await left(listInvitations(s.deps)(member, PAGE)), { _tag: 'AccountAdminRequired' });
    assert.deepEqual(s.sent(), []);
  });

  it('refuses an address a user of the account has, and Sites of another account, sending nothing', async () => {
    const s = await seed();
    assert.deepEqual(await left(() => s.invite('MEMBER@acme.test')), {
      _tag: 'AlreadyAccountUser',
      email: 'member@acme.test',
    });
    assert.deepEqual(
      await left(() => s.invite('ada@example.test', [s.production.id, s.globexSite.id, 999])),
      {
        _tag: 'UnknownSites',
        siteIds: [s.globexSite.id, 999],
      },
    );
    assert.deepEqual(s.sent(), []);
    assert.deepEqual(await s.open(), []);
  });

  it('invites an address a user of another account has alike, and accepting tells the invitee alone', async () => {
    const s = await seed();
    const made = await right(() => s.invite('boss@globex.test'));
    assert.equal(made.email, 'boss@globex.test', 'the admin learns nothing of Globex');
    const token = s.tokenOf(s.sent()[0]);
    assert.deepEqual(await left(() => s.accept(token)), { _tag: 'EmailTaken', email: 'boss@globex.test' });
    assert.equal((await s.open()).length, 1, 'the invitation stays open');
  });

  it('checks the password first: a weak one names `password` and leaves the link open', async () => {
    const s = await seed();
    await right(() => s.invite('ada@example.test'));
    const token = s.tokenOf(s.sent()[0]);
    const weak = await left(() => s.accept(token, 'short'));
    assert.deepEqual(
      { ...(weak as object), reason: '…' },
      { _tag: 'WeakPassword', reason: '…', field: 'password' },
    );
    assert.deepEqual(
      await left(() => s.accept(token, 'ada@example.test')),
      { _tag: 'WeakPassword', reason: 'must not be the e-mail address', field: 'password' },
      'the invited address is the one checked against',
    );
    await right(() => s.accept(token));
  });

  it('inviting an address again replaces its link; revoking ends it; an unknown or foreign id is 404', async () => {
    const s = await seed();
    const first = await right(() => s.invite('ada@example.test'));
    const second = await right(() => s.invite('ada@example.test', [s.development.id]));
    const [oldToken, newToken] = s.sent().map((e) => s.tokenOf(e));
    assert.deepEqual(
      (await s.open()).map((i) => i.id),
      [second.id],
    );
    assert.deepEqual(await left(() => s.accept(oldToken!)), { _tag: 'InvalidInvitationToken' });

    assert.deepEqual(await revokeInvitation(s.deps)(s.admin, second.id)(), E.right(undefined));
    assert.deepEqual(
      await revokeInvitation(s.deps)(s.admin, second.id)(),
      E.right(undefined),
      'twice is fine',
    );
    assert.deepEqual(
      await revokeInvitation(s.deps)(s.admin, first.id)(),
      E.right(undefined),
      'replaced is fine',
    );
    assert.deepEqual(await left(() => s.accept(newToken!)), { _tag: 'InvalidInvitationToken' });
    assert.deepEqual(await s.open(), []);

    assert.deepEqual(await left(revokeInvitation(s.deps)(s.admin, '00000000-0000-4000-8000-00000000ffff')), {
      _tag: 'NotFound',
      entity: 'invitation',
      id: '00000000-0000-4000-8000-00000000ffff',
    });
    const globexAdmin = await s.sessionOf('boss@globex.test');
    const theirs = await right(() => s.invite('carol@example.test', [], globexAdmin));
    assert.deepEqual(await left(revokeInvitation(s.deps)(s.admin, theirs.id)), {
      _tag: 'NotFound',
      entity: 'invitation',
      id: theirs.id,
    });
  });

  it('expires after 7 days', async () => {
    const s = await seed();
    await right(() => s.invite('ada@example.test'));
    const token = s.tokenOf(s.sent()[0]);
    s.world.advance(INVITATION_TTL_SECONDS);
    assert.deepEqual(await s.open(), []);
    assert.deepEqual(await left(() => s.accept(token)), { _tag: 'InvalidInvitationToken' });
  });

  it(`sends at most ${INVITATIONS_PER_HOUR} an account an hour, then says when to retry`, async () => {
    const s = await seed();
    for (let i = 0; i < INVITATIONS_PER_HOUR; i++) {
      await right(() => s.invite(`person${i}@example.test`));
      s.world.advance(60);
    }
    assert.deepEqual(await left(() => s.invite('one-more@example.test')), {
      _tag: 'TooManyInvitations',
      retryAfterSeconds: 3600 - INVITATIONS_PER_HOUR * 60,
    });
    assert.equal(s.sent().length, INVITATIONS_PER_HOUR);
    s.world.advance(3600 - INVITATIONS_PER_HOUR * 60 + 1);
    await right(() => s.invite('one-more@example.test'));
  });
});
