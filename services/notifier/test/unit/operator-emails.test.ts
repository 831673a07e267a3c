import assert from 'node:assert/strict';
import {
  composeApiAccessChanged,
  composeAppChanged,
  composeSigningKeysWithdrawn,
  composeTokenRevoked,
} from '../../src/domain/access-emails.js';

// What an operator's admin CLI did to an account or an app, told to those it stops (ADR 3120).

describe("notifier domain: an account's API access turned off or on by an operator (ADR 3120)", () => {
  const api = (enabled: boolean, accountName = 'Acme') =>
    composeApiAccessChanged({ accountName, enabled, at: '2030-01-03T14:05:00.000Z' });

  it('off: who, when, what stopped, that nothing was deleted, and whom to ask', () => {
    const mail = api(false);
    assert.equal(mail.subject, "Acme's access to E-sign was turned off");
    assert.equal(
      mail.text,
      [
        "An operator of the service turned off Acme's access to E-sign on 2030-01-03 14:05 UTC.",
        "Until it is turned on again, nobody in the account can sign in, and the account's access tokens and client secrets do not work. Nothing was deleted.",
        "If you did not expect this, ask the service's operators why.",
      ].join('\n\n') + '\n',
    );
  });

  it('on again: what works again', () => {
    const mail = api(true);
    assert.equal(mail.subject, "Acme's access to E-sign was restored");
    assert.match(
      mail.text,
      /^An operator of the service turned Acme's access to E-sign on again on 2030-01-03 14:05 UTC\./,
    );
    assert.match(mail.html, /<p>You can sign in again, and the account&#39;s access tokens/);
  });

  it('keeps a hostile account name to one line, escaped in the HTML', () => {
    for (const enabled of [false, true]) {
      const mail = api(enabled, 'Acme & <Sons>\r\nBcc: x@evil.test');
      assert.doesNotMatch(mail.subject, /[\r\n]/);
      assert.ok(!mail.html.includes('<Sons>'));
      assert.ok(mail.html.includes('Acme &amp; &lt;Sons&gt; Bcc: x@evil.test'));
    }
  });
});

describe('notifier domain: a Developer App an operator suspended, restored or deleted (ADR 3120)', () => {
  const app = (change: 'disabled' | 'enabled' | 'deleted', appName = 'Billing sync') =>
    composeAppChanged({ appName, change, at: '2030-01-03T14:05:00.000Z' });

  it('suspended: what stopped, that nothing was deleted, and whom to ask', () => {
    const mail = app('disabled');
    assert.equal(mail.subject, 'Your Developer App “Billing sync” was suspended');
    assert.equal(
      mail.text,
      [
        'An operator of the service suspended your Developer App “Billing sync” on 2030-01-03 14:05 UTC.',
        'Its access tokens and client credentials do not work until it is restored. Nothing was deleted.',
        "If you did not expect this, ask the service's operators why.",
      ].join('\n\n') + '\n',
    );
  });

  it('restored: what works again; deleted: what was revoked, and what to do', () => {
    assert.equal(app('enabled').subject, 'Your Developer App “Billing sync” was restored');
    assert.match(
      app('enabled').text,
      /^An operator of the service restored your Developer App “Billing sync” on 2030-01-03 14:05 UTC\.\n\nIts access tokens and client credentials that have neither expired nor been revoked work again\.\n$/,
    );
    const deleted = app('deleted');
    assert.equal(deleted.subject, 'Your Developer App “Billing sync” was deleted');
    assert.match(
      deleted.text,
      /Its access tokens were revoked and its client secret removed: an integration that used them has stopped\. If you still need one, make a new app on the Developer Apps page\./,
    );
  });

  it('keeps a hostile app name to one line, escaped in the HTML', () => {
    for (const change of ['disabled', 'enabled', 'deleted'] as const) {
      const mail = app(change, '<img src=x>\r\nBcc: x@evil.test');
      assert.doesNotMatch(mail.subject, /[\r\n]/, change);
      assert.ok(!mail.html.includes('<img'), change);
      assert.ok(mail.html.includes('“&lt;img src=x&gt; Bcc: x@evil.test”'), change);
    }
  });
});

describe('notifier domain: an access token an operator revoked (ADR 3120)', () => {
  const revoked = (
    origin: 'self_service' | 'admin' | 'client_credentials' | 'authorization_code',
    tokenName: string | null = 'CI runner',
    appName = 'Billing sync',
  ) => composeTokenRevoked({ appName, tokenName, origin, at: '2030-01-03T14:05:00.000Z' });

  it("one of the user's own tokens: which one, of which app, what stopped, what to do", () => {
    const mail = revoked('self_service');
    assert.equal(mail.subject, 'An access token of “Billing sync” was revoked');
    assert.equal(
      mail.text,
      [
        'An operator of the service revoked the access token “CI runner” of your Developer App “Billing sync” on 2030-01-03 14:05 UTC.',
        'An integration that used it has stopped. Your other tokens and your sessions are not affected. If you still need one, create a new token on the Developer Apps page.',
        "If you did not expect this, ask the service's operators why.",
      ].join('\n\n') + '\n',
    );
    assert.match(revoked('admin', null).text, /^An operator of the service revoked an access token of your/);
  });

  it("a token the user gave someone else's app: that app's access to them", () => {
    const mail = revoked('authorization_code');
    assert.equal(mail.subject, 'The access you gave “Billing sync” was revoked');
    assert.match(
      mail.text,
      /^An operator of the service revoked the access you gave the app “Billing sync” on /,
    );
    assert.match(mail.text, /authorise it again\./);
  });

  it('keeps hostile names to one line, escaped in the HTML', () => {
    const mail = revoked('admin', 'x\r\nBcc: a@evil.test', 'A & <B>');
    assert.doesNotMatch(mail.subject, /[\r\n]/);
    assert.ok(!mail.html.includes('<B>'));
    assert.ok(mail.html.includes('“x Bcc: a@evil.test”'));
  });
});

describe('notifier domain: the signing keys withdrawn at once, with the tokens they signed (ADR 0301)', () => {
  const withdrawn = (tokens: number) =>
    composeSigningKeysWithdrawn({ tokens, at: '2030-01-03T14:05:00.000Z' });

  it('says when, how many of their tokens stopped, and how to mend an integration', () => {
    const mail = withdrawn(3);
    assert.equal(mail.subject, 'Your access tokens stopped working');
    assert.equal(
      mail.text,
      [
        'An operator of the service withdrew its signing keys on 2030-01-03 14:05 UTC, as a precaution: your 3 access tokens stopped working then.',
        'An integration that used one has stopped. Create new tokens on the Developer Apps page; an app that asks for its tokens with its client secret gets a working one the next time it asks. Your sessions, apps and client secrets are not affected.',
        "If you want to know why, ask the service's operators.",
      ].join('\n\n') + '\n',
    );
    assert.match(mail.html, /<p>An operator of the service withdrew its signing keys/);
  });

  it('one token is named as one', () => {
    const mail = withdrawn(1);
    assert.equal(mail.subject, 'Your access token stopped working');
    assert.match(mail.text, /as a precaution: your access token stopped working then\./);
  });
});

describe('notifier domain: the operators named with their contact when the service has one', () => {
  it('every e-mail of an operator’s change says how to reach them', () => {
    const operatorContact = 'support@esign.example';
    const at = '2030-01-03T14:05:00.000Z';
    const mails = [
      composeApiAccessChanged({ accountName: 'Acme', enabled: false, at, operatorContact }),
      composeAppChanged({ appName: 'Billing sync', change: 'deleted', at, operatorContact }),
      composeTokenRevoked({ appName: 'Billing sync', tokenName: null, origin: 'admin', at, operatorContact }),
      composeSigningKeysWithdrawn({ tokens: 2, at, operatorContact }),
    ];
    for (const mail of mails) {
      assert.match(mail.text, /the service's operators \(support@esign\.example\)/, mail.subject);
      assert.match(mail.html, /the service&#39;s operators \(support@esign\.example\)/, mail.subject);
    }
    const unnamed = composeAppChanged({ appName: 'Billing sync', change: 'deleted', at });
    assert.match(unnamed.text, /ask the service's operators why\./);
  });
});
