import assert from 'node:assert/strict';
import {
  PASSWORD_CHANGED,
  PASSWORD_RESET_REQUESTED,
  INVITATION_ACCEPTED,
  USER_INVITED,
  type InvitationAccepted,
  type PasswordChangedNotice,
  type PasswordResetRequested,
  type UserInvited,
} from '@esign/contracts';
import { AccountEmailNotSent } from '../../src/application/send-account-email.js';
import type { SendFailure } from '../../src/domain/delivery.js';
import { accountEmailWorld } from '../support/account-email-world.js';

const NOW = new Date('2030-01-01T00:00:00Z');
const event: PasswordResetRequested = {
  id: '6f1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a6b',
  type: PASSWORD_RESET_REQUESTED,
  occurred_at: NOW.toISOString(),
  aggregate_id: 'user-1',
  data: {
    email: 'dev@acme.test',
    reset_url: 'https://esign.example/app/reset-password?token=prt_abc&x=<1>',
    expires_at: '2030-01-01T00:30:00.000Z',
  },
};

const world = (answers: Array<SendFailure | 'ok'>) => accountEmailWorld(answers, NOW);

describe('notifier: auth’s e-mails to users (ADRs 3000, 3020, 3030, 3040, 3060)', () => {
  it('sends it once, with the link and until when it works, escaped in the HTML', async () => {
    const w = world([]);
    assert.equal(await w.send(event), 'sent');
    assert.equal(await w.send(event), 'already_sent', 'a redelivery sends nothing');
    assert.equal(w.sent.length, 1);
    const mail = w.sent[0]!;
    assert.equal(mail.to, 'dev@acme.test');
    assert.equal(mail.subject, 'Choose a new password');
    assert.equal(mail.idempotencyKey, `account.password_reset_requested/${event.id}`);
    assert.ok(mail.text.includes(event.data.reset_url));
    assert.match(mail.text, /until 2030-01-01 00:30 UTC/);
    assert.match(mail.text, /If you did not ask for this, ignore this e-mail/);
    assert.ok(
      mail.html.includes('href="https://esign.example/app/reset-password?token=prt_abc&amp;x=&lt;1&gt;"'),
    );
  });

  it("an operator's link (ADR 3160): a welcome names the account and the address; otherwise says who sent it", async () => {
    const w = world([]);
    const welcome = {
      ...event,
      id: '7f1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a6b',
      data: { ...event.data, by_operator: true as const, welcome: { account_name: 'Acme <Legal>' } },
    };
    assert.equal(await w.send(welcome), 'sent');
    const first = w.sent[0]!;
    assert.equal(first.subject, 'Your E-sign account: choose your password');
    assert.match(first.text, /made you a user of the account Acme <Legal>, as dev@acme\.test\./);
    assert.match(first.text, /Choose your password here \(the link works once, until 2030-01-01 00:30 UTC\)/);
    assert.ok(first.html.includes('Acme &lt;Legal&gt;'), 'escaped in the HTML');
    assert.ok(!first.text.includes('Someone asked'));

    const reset = {
      ...event,
      id: '8f1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a6b',
      data: { ...event.data, by_operator: true as const },
    };
    assert.equal(await w.send(reset), 'sent');
    const second = w.sent[1]!;
    assert.equal(second.subject, 'Choose a new password');
    assert.match(second.text, /^An operator of E-sign sent you a link to choose a new password/);
    assert.match(
      second.text,
      /If you did not expect this, ignore this e-mail: your password stays as it is\./,
    );
  });

  it('throws on a transient failure so the consumer retries, and gives up an address refused for good', async () => {
    const w = world([
      { _tag: 'Transient', error: 'connection reset' },
      { _tag: 'Permanent', error: '550 no such user' },
    ]);
    await assert.rejects(w.send(event), AccountEmailNotSent);
    assert.equal(w.claimed.size, 0, 'not recorded: the retry sends it');
    assert.equal(await w.send(event), 'refused');
    assert.equal(await w.send(event), 'already_sent');
  });

  it('does not send a link that expired while the event waited', async () => {
    const w = world([]);
    assert.equal(
      await w.send({ ...event, data: { ...event.data, expires_at: NOW.toISOString() } }),
      'expired',
    );
    assert.equal(w.sent.length, 0);
    assert.equal(w.claimed.has(event.id), true);
  });

  it('tells the user their password changed, how, and what to do if it was not them', async () => {
    const notice: PasswordChangedNotice = {
      id: '7a1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a6c',
      type: PASSWORD_CHANGED,
      occurred_at: '2030-01-01T00:10:00.000Z',
      aggregate_id: 'user-1',
      data: { email: 'dev@acme.test', by: 'reset_link' },
    };
    const w = world([]);
    assert.equal(await w.send(notice), 'sent');
    assert.equal(await w.send(notice), 'already_sent');
    const mail = w.sent[0]!;
    assert.equal(mail.to, 'dev@acme.test');
    assert.equal(mail.subject, 'Your password was changed');
    assert.match(
      mail.text,
      /dev@acme\.test was changed on 2030-01-01 00:10 UTC, with a link e-mailed to this address/,
    );
    assert.match(mail.text, /If you did not do this, use "Forgotten your password\?"/);
    assert.match(mail.html, /&quot;Forgotten your password\?&quot;/);
  });

  it('e-mails an invitation once: who invited, to which account, the link, the address to sign in with', async () => {
    const invitation: UserInvited = {
      id: '8b1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a6d',
      type: USER_INVITED,
      occurred_at: NOW.toISOString(),
      aggregate_id: 'invitation-1',
      data: {
        email: 'ada@example.test',
        account_name: 'Acme & <Sons>',
        invited_by: 'admin@acme.test',
        accept_url: 'https://esign.example/app/accept-invitation?token=inv_abc&x=<1>',
        expires_at: '2030-01-08T00:00:00.000Z',
      },
    };
    const w = world([]);
    assert.equal(await w.send(invitation), 'sent');
    assert.equal(await w.send(invitation), 'already_sent');
    const mail = w.sent[0]!;
    assert.equal(mail.to, 'ada@example.test');
    assert.equal(mail.subject, 'Join Acme & <Sons> on E-sign');
    assert.equal(mail.idempotencyKey, `account.user_invited/${invitation.id}`);
    assert.match(mail.text, /^admin@acme\.test invited you to join Acme & <Sons> on E-sign/);
    assert.ok(mail.text.includes(`until 2030-01-08 00:00 UTC):\n${invitation.data.accept_url}`));
    assert.match(mail.text, /You will sign in as ada@example\.test/);
    assert.ok(mail.html.includes('Acme &amp; &lt;Sons&gt;'));
    assert.ok(
      mail.html.includes('href="https://esign.example/app/accept-invitation?token=inv_abc&amp;x=&lt;1&gt;"'),
    );

    const late = world([]);
    const expired = { ...invitation, data: { ...invitation.data, expires_at: NOW.toISOString() } };
    assert.equal(await late.send(expired), 'expired', 'a link dead on arrival is not sent');
    assert.equal(late.sent.length, 0);
  });

  it('tells the inviting admin their colleague joined, and what to do if they do not know them', async () => {
    const accepted: InvitationAccepted = {
      id: '9c1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a6e',
      type: INVITATION_ACCEPTED,
      occurred_at: '2030-01-02T09:30:00.000Z',
      aggregate_id: 'invitation-1',
      data: { email: 'admin@acme.test', account_name: 'Acme', joined: 'ada@example.test' },
    };
    const w = world([]);
    assert.equal(await w.send(accepted), 'sent');
    assert.equal(await w.send(accepted), 'already_sent');
    const mail = w.sent[0]!;
    assert.equal(mail.to, 'admin@acme.test');
    assert.equal(mail.subject, 'ada@example.test joined Acme');
    assert.match(
      mail.text,
      /^ada@example\.test accepted your invitation and joined Acme on E-sign on 2030-01-02 09:30 UTC\./,
    );
    assert.match(mail.text, /disable them on the Users page at once/);
  });

  it("an invitation that makes an admin says so, and so does the inviter's notice (ADR 3090)", async () => {
    // The two tests above send events written before ADR 3090, which carry no `admin`.
    const invitation: UserInvited = {
      id: 'be1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a70',
      type: USER_INVITED,
      occurred_at: NOW.toISOString(),
      aggregate_id: 'invitation-2',
      data: {
        email: 'ada@example.test',
        account_name: 'Acme',
        invited_by: 'admin@acme.test',
        accept_url: 'https://esign.example/app/accept-invitation?token=inv_def',
        expires_at: '2030-01-08T00:00:00.000Z',
        admin: true,
      },
    };
    const accepted: InvitationAccepted = {
      id: 'cf1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a71',
      type: INVITATION_ACCEPTED,
      occurred_at: '2030-01-02T09:30:00.000Z',
      aggregate_id: 'invitation-2',
      data: { email: 'admin@acme.test', account_name: 'Acme', joined: 'ada@example.test', admin: true },
    };
    const w = world([]);
    assert.equal(await w.send(invitation), 'sent');
    assert.equal(await w.send(accepted), 'sent');
    const [invited, joined] = w.sent;
    assert.equal(invited!.subject, 'Join Acme on E-sign as an admin');
    assert.match(
      invited!.text,
      /^admin@acme\.test invited you to join Acme on E-sign as an admin, to send contracts for signature and to manage the account: you will be able to invite the account's users, .*, and rename the account\./,
    );
    assert.equal(joined!.subject, 'ada@example.test joined Acme as an admin');
    assert.match(
      joined!.text,
      /^ada@example\.test accepted your invitation and joined Acme on E-sign as an admin on 2030-01-02 09:30 UTC\./,
    );
    assert.match(joined!.text, /remove their admin role and disable them on the Users page at once/);
  });
});
