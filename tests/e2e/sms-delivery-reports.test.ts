// Twilio's reports on SMS it accepted (ADR 3880), through the gateway against the whole
// system: the notifier asks for them with each SMS, checks each report's signature, and
// tells an SMS Twilio could not deliver as the message's failure: the signer's status, the
// Request's history, once.
import assert from 'node:assert/strict';
import { eventually, startEsignSystem, twilioSignature, type EsignSystem } from '@esign/testing';
import { clientOf, ok, publishedAgreement, sentAgreement, smsTo, type ClientOf } from './support/flow.js';

describe('end to end through the gateway: Twilio’s reports on SMS it accepted', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_sms_reports' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });

  it('tells an SMS Twilio could not deliver as failed, once, and only on a report signed with our token', async () => {
    const template = await publishedAgreement(acme);
    const created = await sentAgreement(acme, template);
    const path = { request_id: created.id };
    const texted = created.signers.find((s) => s.mobile_number !== null)!;
    const sms = await eventually(() => Promise.resolve(smsTo(system, `+${texted.mobile_number}`)[0]));
    assert.equal(
      sms.statusCallback,
      `${system.gatewayUrl}/callbacks/twilio/sms-status`,
      'asked for with the SMS',
    );
    const smsStatus = async () =>
      ok(await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path } }), 200, 'get').signers.find(
        (s) => s.signer_id === texted.signer_id,
      )!.notifications.sms;
    await eventually(async () => ((await smsStatus()) === 'delivered' ? true : undefined));

    // On its way, then arrived: nothing to tell. A report signed with another token: refused.
    assert.equal(await system.twilio.report(sms.sid, 'sent'), 204);
    assert.equal(await system.twilio.report(sms.sid, 'delivered'), 204);
    assert.equal(await system.twilio.report(sms.sid, 'undelivered', '30003', 'not-our-token'), 403);
    assert.equal(await smsStatus(), 'delivered');

    assert.equal(await system.twilio.report(sms.sid, 'undelivered', '30003'), 204);
    await eventually(async () => ((await smsStatus()) === 'failed' ? true : undefined));
    const failures = async () =>
      ok(
        await acme.esign.GET('/v1.1/requests/{request_id}/events', { params: { path } }),
        200,
        'history',
      ).data.filter((e) => e.type === 'request.delivery_failed');
    const [failure] = await failures();
    assert.deepEqual(
      { ...failure!.data, failed_at: undefined },
      {
        request_id: created.id,
        signer_id: texted.signer_id,
        signer_ref: texted.signer_ref,
        channel: 'sms',
        status: 'failed',
        error: 'Twilio undelivered: error 30003 (unreachable destination handset)',
        failed_at: undefined,
        to: texted.mobile_number,
      },
    );
    // Not a status callback: refused, saying why.
    const callback = `${system.gatewayUrl}/callbacks/twilio/sms-status`;
    const json = await fetch(callback, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(json.status, 415);
    const unnamed = { MessageStatus: 'undelivered', ErrorCode: '30003' };
    const noSid = await fetch(callback, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(system.twilio.authToken, callback, unnamed),
      },
      body: new URLSearchParams(unnamed).toString(),
    });
    assert.equal(noSid.status, 422);
    assert.deepEqual(((await noSid.json()) as { errors: unknown }).errors, [
      { path: 'MessageSid', message: 'must be a message SID' },
    ]);
    // A report is a few hundred bytes: a body past 16 KB is not read to its end.
    const huge = await fetch(callback, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `MessageSid=${'x'.repeat(20_000)}`,
    });
    assert.equal(huge.status, 413);
    assert.equal(((await huge.json()) as { code: string }).code, 'payload_too_large');
    // Twilio may report again: told once.
    assert.equal(await system.twilio.report(sms.sid, 'undelivered', '30003'), 204);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal((await failures()).length, 1);
  });
});
