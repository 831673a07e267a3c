import assert from 'node:assert/strict';
import {
  ACCESS_CHANGED,
  API_ACCESS_CHANGED,
  SIGNING_KEYS_WITHDRAWN,
  type AccessChanged,
  type ApiAccessChanged,
  type SigningKeysWithdrawn,
} from '@esign/contracts';
import { accountEmailWorld } from '../support/account-email-world.js';

const world = () => accountEmailWorld([], new Date('2030-01-04T00:00:00Z'));

// Split from send-account-email.test.ts: what admins and operators change about users, their
// accounts and their tokens, each e-mailed once to the address its event names.
describe('notifier: auth’s e-mails of access changes (ADRs 3060, 3120, 0301)', () => {
  it('sends an access change once, to the address it names, not to the changed user', async () => {
    // Auth writes one event per recipient: this one tells Bob, another admin, about Ada.
    const changed: AccessChanged = {
      id: 'ad1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a6f',
      type: ACCESS_CHANGED,
      occurred_at: '2030-01-03T14:05:00.000Z',
      aggregate_id: 'user-ada',
      data: {
        email: 'bob@acme.test',
        account_name: 'Acme',
        change: 'made_admin',
        user: 'ada@acme.test',
        by: 'carol@acme.test',
      },
    };
    const w = world();
    assert.equal(await w.send(changed), 'sent');
    assert.equal(await w.send(changed), 'already_sent', 'a redelivery sends nothing');
    assert.equal(w.sent.length, 1);
    const mail = w.sent[0]!;
    assert.equal(mail.to, 'bob@acme.test');
    assert.equal(mail.idempotencyKey, `account.access_changed/${changed.id}`);
    assert.equal(mail.subject, 'ada@acme.test is now an admin of Acme');
    assert.match(
      mail.text,
      /^carol@acme\.test made ada@acme\.test an admin of Acme on E-sign on 2030-01-03 14:05 UTC\./,
    );
  });

  it("says an operator's change was an operator's, and suspects no one's session (ADR 3120)", async () => {
    const w = world();
    const byOperator: AccessChanged = {
      id: 'ad1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a70',
      type: ACCESS_CHANGED,
      occurred_at: '2030-01-03T14:05:00.000Z',
      aggregate_id: 'user-ada',
      data: {
        email: 'bob@acme.test',
        account_name: 'Acme',
        change: 'disabled',
        user: 'ada@acme.test',
        by: 'operator',
        by_operator: true,
      },
    };
    assert.equal(await w.send(byOperator), 'sent');
    const mail = w.sent[0]!;
    assert.equal(mail.to, 'bob@acme.test');
    assert.match(mail.text, /^An operator of the service turned off ada@acme\.test's access to Acme/);
    assert.doesNotMatch(mail.text, /session:|'s session|operator's session/);
  });

  it("tells a user their account's API access was turned off, once (ADR 3120)", async () => {
    const w = world();
    const off: ApiAccessChanged = {
      id: 'ad1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a71',
      type: API_ACCESS_CHANGED,
      occurred_at: '2030-01-03T14:05:00.000Z',
      aggregate_id: 'account-acme',
      data: { email: 'ada@acme.test', account_name: 'Acme', enabled: false },
    };
    assert.equal(await w.send(off), 'sent');
    assert.equal(await w.send(off), 'already_sent');
    assert.deepEqual(
      w.sent.map((m) => [m.to, m.subject, m.idempotencyKey]),
      [['ada@acme.test', "Acme's access to E-sign was turned off", `account.api_access_changed/${off.id}`]],
    );
  });

  it('tells a user their tokens stopped when the signing keys were withdrawn, once (ADR 0301)', async () => {
    const w = world();
    const withdrawn: SigningKeysWithdrawn = {
      id: 'ad1c2b8e-0d3a-4e5f-9a7b-1c2d3e4f5a72',
      type: SIGNING_KEYS_WITHDRAWN,
      occurred_at: '2030-01-03T14:05:00.000Z',
      aggregate_id: 'user-ada',
      data: { email: 'ada@acme.test', tokens: 2 },
    };
    assert.equal(await w.send(withdrawn), 'sent');
    assert.equal(await w.send(withdrawn), 'already_sent');
    assert.deepEqual(
      w.sent.map((m) => [m.to, m.subject, m.idempotencyKey]),
      [
        [
          'ada@acme.test',
          'Your access tokens stopped working',
          `account.signing_keys_withdrawn/${withdrawn.id}`,
        ],
      ],
    );
    assert.match(w.sent[0]!.text, /your 2 access tokens stopped working then/);
    assert.match(w.sent[0]!.text, /ask the service's operators\./);
    // With OPERATOR_CONTACT set, the e-mail says how to reach them.
    const named = accountEmailWorld([], new Date('2030-01-04T00:00:00Z'), 'https://esign.example/support');
    assert.equal(await named.send(withdrawn), 'sent');
    assert.match(named.sent[0]!.text, /ask the service's operators \(https:\/\/esign\.example\/support\)\./);
  });
});
