import assert from 'node:assert/strict';
import type { Caller } from '../../src/application/caller.js';
import { COPIED_ACCESS_CODE, copyBody } from '../../src/domain/request-copy.js';
import { createSignatureRequest } from '../../src/domain/request-creation.js';
import { creationInput, fresh, left, NOW, right, sent, signer } from '../support/builders.js';
import { caller, memoryLifecycle } from '../support/memory-lifecycle.js';

/** A sent Request with everything a copy keeps, and things it does not (its signers' progress, its expiry). */
const source = () =>
  sent({
    signers: [
      signer({ order: 1, authentication: 'access_code', locale: 'fr', state: 'signed', signedAt: NOW }),
      signer({
        signerId: 'bob',
        signerRef: 'ref1',
        contact: { email: null, mobileNumber: '15552345678' },
        sendTo: { email: false, sms: true },
        order: 2,
        authentication: 'sms_otp',
      }),
    ],
    fields: [
      { name: 'full_name', defaultValue: 'Alice Doe', assignedTo: 'alice@example.com' },
      { name: 'signature', defaultValue: null, assignedTo: 'bob' },
      { name: 'agree', defaultValue: null, assignedTo: null },
    ],
    renderData: { client_name: 'Acme' },
    cc: ['legal@example.com'],
    message: 'Please sign.\nThanks',
    title: 'Lease — 4 Quay Street',
    subject: 'Your lease, ready to sign',
    allowReassign: true,
    redirectUrl: 'https://client.example/done',
    reminderIntervalDays: 3,
    expiresAt: NOW,
  });
const known = new Map([
  ['alice@example.com', { email: 'alice@example.com', mobileNumber: null }],
  ['bob', { email: null, mobileNumber: '15559876543' }],
]);

describe('requests domain: a Request copied into a new draft (ADR 3330)', () => {
  it('asks for what the source is made of: contracts, signers and their settings, fields, render_data, cc, message, title, subject, reassigning, redirect, reminders', () => {
    assert.deepEqual(copyBody(source(), known, undefined), {
      contracts: [11],
      signers: [
        {
          signer_id: 'alice@example.com',
          send_to: { email: true, mobile_number: false },
          order: 1,
          authentication: { method: 'access_code', access_code: COPIED_ACCESS_CODE },
          locale: 'fr',
        },
        {
          signer_id: 'bob',
          send_to: { email: false, mobile_number: true },
          order: 2,
          authentication: { method: 'sms_otp' },
        },
      ],
      fields: [
        { name: 'full_name', default_value: 'Alice Doe', assigned_to: 'alice@example.com' },
        { name: 'signature', assigned_to: 'bob' },
        { name: 'agree' },
      ],
      render_data: { client_name: 'Acme' },
      cc: ['legal@example.com'],
      message: 'Please sign.\nThanks',
      title: 'Lease — 4 Quay Street',
      subject: 'Your lease, ready to sign',
      allow_reassign: true,
      redirect_url: 'https://client.example/done',
      reminder_interval_days: 3,
      test_mode: false,
    });
  });

  it('gives the source’s details only for a signer the Site has no record of, and takes test_mode when given', () => {
    const body = copyBody(source(), new Map([...known].slice(0, 1)), true);
    assert.equal(body.signers[0]!.signer, undefined, 'the Site’s details, as they are now');
    assert.deepEqual(body.signers[1]!.signer, { mobile_number: '15552345678' });
    assert.equal(body.test_mode, true);
    const bare = copyBody(
      sent({ cc: [], renderData: {}, message: null, title: null, subject: null }),
      known,
      undefined,
    );
    assert.deepEqual(
      Object.keys(bare).sort(),
      ['contracts', 'fields', 'signers', 'test_mode'],
      'nothing asked for that the source lacks',
    );
  });

  it('makes, by the create’s rules, a pending draft reached at the Site’s details as they are now', () => {
    const made = createSignatureRequest(
      creationInput({ body: copyBody(source(), known, undefined), storedContacts: known }),
    );
    assert.ok(made._tag === 'Right', JSON.stringify(made));
    const copy = made.right.request;
    assert.equal(copy.state, 'draft');
    assert.deepEqual(
      copy.signers.map((s) => [s.signerId, s.state, s.order, s.authentication, s.contact.mobileNumber]),
      [
        ['alice@example.com', 'pending', 1, 'access_code', null],
        ['bob', 'pending', 2, 'sms_otp', '15559876543'],
      ],
    );
    assert.equal(copy.expiresAt, null, 'no expiry: the source’s may have passed');
    const byName = new Map(copy.fields.map((f) => [f.name, f]));
    for (const field of source().fields) assert.deepEqual(byName.get(field.name), field, field.name);
  });
});

describe('requests use cases: a copy and test-only tokens (ADR 3330, issue #22)', () => {
  const testOnly: Caller = { ...caller, testModeOnly: true };

  it('copies a test Request as one for a test-only token, and refuses it a live copy, writing nothing', async () => {
    const { cases, create, memory } = await memoryLifecycle();
    const [test, live] = [await create({ test_mode: true }), await create({ test_mode: false })];
    const copy = (who: Caller, id: string, testMode?: boolean) =>
      cases.copyRequest({
        caller: who,
        requestId: id,
        body: testMode === undefined ? {} : { test_mode: testMode },
      })();
    const count = () => memory.state().requests.size;
    assert.equal(fresh(right(await copy(testOnly, test.id))).test_mode, true);
    const before = count();
    assert.deepEqual(left(await copy(testOnly, live.id)), { _tag: 'TestModeOnlyToken', on: 'create' });
    assert.deepEqual(left(await copy(testOnly, test.id, false)), { _tag: 'TestModeOnlyToken', on: 'create' });
    assert.equal(count(), before, 'nothing written');
    assert.equal(fresh(right(await copy(testOnly, live.id, true))).test_mode, true);
    assert.equal(fresh(right(await copy(caller, test.id, false))).test_mode, false);
    assert.deepEqual(left(await copy({ ...caller, sites: [{ id: 8, name: 'Other' }] }, live.id)), {
      _tag: 'NotFound',
      resource: 'request',
    });
  });
});
