import assert from 'node:assert/strict';
import { escapeHtml, type AccessChange } from '@esign/contracts';
import { composeAccessChanged } from '../../src/domain/access-emails.js';

// One e-mail per recipient: Ada is the changed user, Bob another admin, Carol the one who did it.
const ADA = 'ada@acme.test';
const BOB = 'bob@acme.test';
const CAROL = 'carol@acme.test';
type Input = Parameters<typeof composeAccessChanged>[0];
const compose = (input: Partial<Input> & { readonly change: AccessChange }) =>
  composeAccessChanged({
    email: ADA,
    accountName: 'Acme',
    user: ADA,
    by: CAROL,
    byOperator: false,
    at: '2030-01-03T14:05:00.000Z',
    ...input,
  });

const AT = 'on E-sign on 2030-01-03 14:05 UTC.';
const CHECK_USERS =
  "If you did not expect this, check the Users page at once: someone may be using carol@acme.test's session. An admin can remove their admin role and disable them there, which ends their sessions. Change your password too, which ends every session of yours.";
const BY_OPERATOR =
  "If you did not expect this, ask the service's operators why. An admin of Acme can undo it on the Users page.";
const YOUR_SESSION = 'If you did not do this, someone is using your session: change your password at once';
const ADMINS_MAY =
  "invite the account's users, disable and enable them, make and remove its admins, create and rename its Sites, and rename the account.";

interface Variant {
  readonly input: Partial<Input> & { readonly change: AccessChange };
  readonly subject: string;
  /** In this order: what happened, by whom and when; what it means; what to do if unexpected. */
  readonly says: readonly string[];
}

const VARIANTS: Record<string, Variant> = {
  'made admin, to them': {
    input: { change: 'made_admin' },
    subject: 'You are now an admin of Acme',
    says: [`carol@acme.test made you an admin of Acme ${AT}`, `You can now ${ADMINS_MAY}`, CHECK_USERS],
  },
  'made admin, to another admin': {
    input: { change: 'made_admin', email: BOB },
    subject: 'ada@acme.test is now an admin of Acme',
    says: [
      `carol@acme.test made ada@acme.test an admin of Acme ${AT}`,
      `They can now ${ADMINS_MAY}`,
      CHECK_USERS,
    ],
  },
  'made admin, to the admin who did it': {
    input: { change: 'made_admin', email: CAROL },
    subject: 'ada@acme.test is now an admin of Acme',
    says: [
      `You made ada@acme.test an admin of Acme ${AT}`,
      `${YOUR_SESSION}, which ends every session of yours, then undo the change on the Users page.`,
    ],
  },
  // ADR 3090: told to the account's other admins when someone accepts an admin invitation.
  'joined as an admin, to another admin': {
    input: { change: 'joined_as_admin', email: BOB },
    subject: 'ada@acme.test joined Acme as an admin',
    says: [
      `ada@acme.test accepted carol@acme.test's invitation and joined Acme on E-sign as an admin on 2030-01-03 14:05 UTC.`,
      `They can now ${ADMINS_MAY}`,
      CHECK_USERS,
    ],
  },
  'removed, to them': {
    input: { change: 'removed_admin' },
    subject: 'You are no longer an admin of Acme',
    says: [
      `carol@acme.test removed you as an admin of Acme ${AT}`,
      'You can still sign in and work in the account, but no longer manage its users or Sites.',
      // No longer an admin, Ada cannot undo it on the Users page: another admin has to.
      "If you did not expect this, tell another admin of Acme at once: someone may be using carol@acme.test's session. An admin can give you the role back on the Users page.",
    ],
  },
  'removed, to another admin': {
    input: { change: 'removed_admin', email: BOB },
    subject: 'ada@acme.test is no longer an admin of Acme',
    says: [
      `carol@acme.test removed ada@acme.test as an admin of Acme ${AT}`,
      'They can still sign in and work in the account, but no longer manage its users or Sites.',
      CHECK_USERS,
    ],
  },
  'stepped down, to them': {
    input: { change: 'removed_admin', by: ADA },
    subject: 'You are no longer an admin of Acme',
    says: [
      `You stepped down as an admin of Acme ${AT}`,
      `${YOUR_SESSION}, which ends every session of yours, and ask an admin of Acme to give you the role back.`,
    ],
  },
  'stepped down, to another admin': {
    input: { change: 'removed_admin', by: ADA, email: BOB },
    subject: 'ada@acme.test is no longer an admin of Acme',
    says: [`ada@acme.test stepped down as an admin of Acme ${AT}`],
  },
  disabled: {
    input: { change: 'disabled' },
    subject: 'Your access to Acme was turned off',
    says: [
      `carol@acme.test turned off your access to Acme ${AT}`,
      'Your sessions were ended, you can no longer sign in, and your access tokens and client secrets stopped working.',
      'If this is a mistake, ask an admin of Acme to enable you again. There is nothing else you need to do.',
    ],
  },
  enabled: {
    input: { change: 'enabled' },
    subject: 'Your access to Acme was restored',
    says: [
      `carol@acme.test restored your access to Acme ${AT}`,
      'You can sign in again, and your access tokens and client secrets that have neither expired nor been revoked work again.',
      'If you did not expect this, tell an admin of Acme.',
    ],
  },
  // Auth tells only the user of these; were another told, the e-mail must not say "your".
  'disabled, to another': {
    input: { change: 'disabled', email: BOB },
    subject: "ada@acme.test's access to Acme was turned off",
    says: [
      `carol@acme.test turned off ada@acme.test's access to Acme ${AT}`,
      'Their sessions were ended',
      CHECK_USERS,
    ],
  },
  'enabled, to another': {
    input: { change: 'enabled', email: BOB },
    subject: "ada@acme.test's access to Acme was restored",
    says: [
      `carol@acme.test restored ada@acme.test's access to Acme ${AT}`,
      'They can sign in again',
      CHECK_USERS,
    ],
  },
  // ADR 3120: an operator's change with the admin CLI names no one, and suspects no session.
  'made admin by an operator, to them': {
    input: { change: 'made_admin', by: 'operator', byOperator: true },
    subject: 'You are now an admin of Acme',
    says: [
      `An operator of the service made you an admin of Acme ${AT}`,
      `You can now ${ADMINS_MAY}`,
      BY_OPERATOR,
    ],
  },
  'removed by an operator, to them': {
    input: { change: 'removed_admin', by: 'operator', byOperator: true },
    subject: 'You are no longer an admin of Acme',
    says: [
      `An operator of the service removed you as an admin of Acme ${AT}`,
      'You can still sign in',
      "If you did not expect this, ask another admin of Acme or the service's operators why. An admin can give you the role back on the Users page.",
    ],
  },
  'disabled by an operator, to them': {
    input: { change: 'disabled', by: 'operator', byOperator: true },
    subject: 'Your access to Acme was turned off',
    says: [
      `An operator of the service turned off your access to Acme ${AT}`,
      'Your sessions were ended',
      // They may have been the only admin.
      "If this is a mistake, ask an admin of Acme or the service's operators to enable you again.",
    ],
  },
  'disabled by an operator, to an admin': {
    input: { change: 'disabled', email: BOB, by: 'operator', byOperator: true },
    subject: "ada@acme.test's access to Acme was turned off",
    says: [
      `An operator of the service turned off ada@acme.test's access to Acme ${AT}`,
      'Their sessions were ended',
      BY_OPERATOR,
    ],
  },
  'enabled by an operator, to an admin': {
    input: { change: 'enabled', email: BOB, by: 'operator', byOperator: true },
    subject: "ada@acme.test's access to Acme was restored",
    says: [
      `An operator of the service restored ada@acme.test's access to Acme ${AT}`,
      'They can sign in again',
      BY_OPERATOR,
    ],
  },
};

describe('notifier domain: what an admin changed about a user, told by e-mail (ADRs 3040, 3060, 3090, 3120)', () => {
  for (const [what, { input, subject, says }] of Object.entries(VARIANTS))
    it(`${what}: "${subject}"`, () => {
      const mail = compose(input);
      assert.equal(mail.subject, subject);
      assert.ok(mail.text.startsWith(says[0]!), mail.text);
      let from = 0;
      for (const sentence of says) {
        const at = mail.text.indexOf(sentence, from);
        assert.ok(at >= from, `in order in the text: ${sentence}\n${mail.text}`);
        from = at + sentence.length;
        assert.ok(mail.html.includes(`<p>${escapeHtml(sentence)}`), `in the HTML: ${sentence}\n${mail.html}`);
      }
    });

  it("an operator's change suspects nobody's session, whatever it is and whoever reads it (ADR 3120)", () => {
    for (const change of ['made_admin', 'removed_admin', 'disabled', 'enabled'] as const)
      for (const email of [ADA, BOB]) {
        const mail = compose({ change, email, by: 'operator', byOperator: true });
        assert.match(mail.text, /^An operator of the service /, `${change} to ${email}`);
        assert.doesNotMatch(mail.text, /session:|'s session|stepped down/, `${change} to ${email}`);
      }
  });

  it('escapes a hostile address and account name in the HTML, and keeps the subject on one line', () => {
    const user = '<script>alert(1)</script>@evil.test';
    const accountName = 'Acme & <Sons>\r\nBcc: x@evil.test';
    for (const change of ['made_admin', 'removed_admin', 'disabled', 'enabled', 'joined_as_admin'] as const)
      for (const email of [user, BOB]) {
        const mail = compose({ change, email, user, accountName });
        const what = `${change} to ${email}`;
        assert.ok(
          !mail.html.includes('<script>') && !mail.html.includes('<Sons>'),
          `${what}: no markup of theirs`,
        );
        assert.ok(
          mail.html.includes('Acme &amp; &lt;Sons&gt; Bcc: x@evil.test'),
          `${what}: the name, escaped`,
        );
        if (email === BOB)
          assert.ok(
            mail.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;@evil.test'),
            `${what}: the address`,
          );
        assert.ok(mail.subject.includes('Acme & <Sons> Bcc: x@evil.test'), `${what}: ${mail.subject}`);
        assert.doesNotMatch(mail.subject, /[\r\n]/, `${what}: one line`);
        assert.doesNotMatch(mail.text, /\r|Sons>\n/, `${what}: no forged paragraph`);
      }
  });
});
