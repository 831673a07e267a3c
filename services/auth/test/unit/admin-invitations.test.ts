import assert from 'node:assert/strict';
import { AccessChanged, InvitationAccepted } from '@esign/contracts';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { signIn } from '../../src/application/sign-in.js';
import { listInvitations } from '../../src/application/invitations.js';
import { createUser, setAccountAdmin, setUserDisabled } from '../../src/application/users.js';
import { INVITEE_PASSWORD, PAGE, PASSWORD, seed } from '../support/invitations-world.js';
import { left, right } from '../support/port-task.js';

/** Acme's member made a second admin, and a third admin who is disabled. */
const withAdmins = async () => {
  const s = await seed();
  await right(setAccountAdmin(s.deps)({ userId: s.member.id, admin: true }));
  const gone = await right(
    createUser(s.deps)({ accountId: s.account.id, email: 'gone@acme.test', password: PASSWORD }),
  );
  await right(setAccountAdmin(s.deps)({ userId: gone.id, admin: true }));
  await right(setUserDisabled(s.deps)({ userId: gone.id, disabled: true }));
  s.world.state.outbox.length = 0; // what the operator's changes e-mailed (ADR 3120)
  return s;
};

describe('auth use cases: account admins invite admins (ADR 3090)', () => {
  it('makes an admin: the inviter hears "joined as an admin", every other enabled admin hears it too', async () => {
    const s = await withAdmins();
    const made = await right(() => s.invite('ada@example.test', [s.production.id], s.admin, true));
    assert.equal(made.admin, true);
    assert.equal(s.sent()[0]!.data.admin, true, 'the e-mail says it makes an admin');
    assert.deepEqual(
      (await s.open()).map((i) => [i.email, i.admin]),
      [['ada@example.test', true]],
    );

    const accepted = await right(() => s.accept(s.tokenOf(s.sent()[0])));
    assert.equal(accepted.user.admin, true);
    const ada = await right(signIn(s.deps)({ email: 'ada@example.test', password: INVITEE_PASSWORD }));
    const session = await right(authenticateSession(s.deps)(ada.sessionToken));
    assert.equal(session.accountAdmin, true);

    const outbox = s.world.state.outbox;
    assert.deepEqual(
      outbox.filter((e) => InvitationAccepted.is(e)).map((e) => e.data),
      [{ email: 'admin@acme.test', account_name: 'Acme', joined: 'ada@example.test', admin: true }],
    );
    assert.deepEqual(
      outbox.filter((e) => AccessChanged.is(e)).map((e) => [e.aggregate_id, e.data]),
      [
        [
          made.id,
          {
            email: 'member@acme.test',
            account_name: 'Acme',
            change: 'joined_as_admin',
            user: 'ada@example.test',
            by: 'admin@acme.test',
          },
        ],
      ],
      'the other enabled admin is told; the inviter and the new admin are not told twice, a disabled admin not at all',
    );
  });

  it('a member invitation tells no other admin', async () => {
    const s = await withAdmins();
    await right(() => s.invite('ada@example.test'));
    await right(() => s.accept(s.tokenOf(s.sent()[0])));
    assert.deepEqual(
      s.world.state.outbox.filter((e) => AccessChanged.is(e)),
      [],
    );
  });

  for (const [what, undo] of [
    [
      'demoted',
      (s: Awaited<ReturnType<typeof seed>>) =>
        setAccountAdmin(s.deps)({ userId: s.admin.userId, admin: false }),
    ],
    [
      'disabled',
      (s: Awaited<ReturnType<typeof seed>>) =>
        setUserDisabled(s.deps)({ userId: s.admin.userId, disabled: true }),
    ],
  ] as const)
    it(`stops working once its sender is ${what}: not listed, not accepted, nothing made`, async () => {
      const s = await withAdmins();
      await right(() => s.invite('ada@example.test', [], s.admin, true));
      await right(() => s.invite('bob@example.test', [], s.admin, false));
      const [toAda, toBob] = s.sent();
      const outboxBefore = s.world.state.outbox.length;
      await right(undo(s));
      const other = await s.sessionOf('member@acme.test');
      const listed = await right(listInvitations(s.deps)(other, PAGE));
      assert.deepEqual(
        listed.items.map((i) => i.email),
        ['bob@example.test'],
        'the admin invitation is no longer open; the member invitation is',
      );
      assert.deepEqual(await left(() => s.accept(s.tokenOf(toAda))), { _tag: 'InvalidInvitationToken' });
      assert.ok(
        ![...s.world.state.users.values()].some((u) => u.email === 'ada@example.test'),
        'no user was made',
      );
      const bob = await right(() => s.accept(s.tokenOf(toBob)));
      assert.equal(bob.user.admin, false, 'a member invitation works whoever sent it');
      assert.equal(
        s.world.state.outbox
          .slice(outboxBefore)
          .filter((e) => AccessChanged.is(e) && e.data.change === 'joined_as_admin').length,
        0,
      );
    });
});
