import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { twilioSmsSender } from '../../src/adapters/twilio/twilio-sms-sender.js';
import { startTwilioApi, type TwilioApiDouble } from '@esign/testing';

const sms = (to: string) => ({
  to,
  body: 'Acme sent you "Lease" to sign. Sign here: https://esign.example/s?x=1',
  idempotencyKey: to,
});

describe('notifier adapter: Twilio SMS sender (the twilio SDK against a local Messages API)', () => {
  let api: TwilioApiDouble;
  before(async () => {
    api = await startTwilioApi({ pathPrefix: '/twilio' });
  });
  after(() => api.close());

  const sender = (overrides: { from?: string; authToken?: string } = {}) =>
    twilioSmsSender({
      accountSid: api.accountSid,
      authToken: overrides.authToken ?? api.authToken,
      from: overrides.from ?? '+12025550100',
      apiBaseUrl: api.baseUrl,
      timeoutMs: 2_000,
    });

  it('posts To, From and Body to the Messages resource at the configured base URL', async () => {
    const result = await sender().send(sms('+12025550111'))();
    assert.ok(E.isRight(result));
    const [sent] = api.sent;
    assert.equal(result.right.providerMessageId, sent?.sid);
    assert.equal(sent?.path, `/twilio/2010-04-01/Accounts/${api.accountSid}/Messages.json`);
    assert.deepEqual([sent?.to, sent?.from, sent?.body], ['+12025550111', '+12025550100', sms('').body]);
  });

  it('sends through a Messaging Service when the sender is one', async () => {
    const service = `MG${'ab'.repeat(16)}`;
    assert.ok(E.isRight(await sender({ from: service }).send(sms('+12025550112'))()));
    assert.equal(api.sent.at(-1)?.messagingServiceSid, service);
    assert.equal(api.sent.at(-1)?.from, undefined);
  });

  it('reports an invalid or non-mobile number as permanent, with Twilio’s code', async () => {
    api.refuse('+12025550113', 400, 21211, "The 'To' number +12025550113 is not a valid phone number.");
    api.refuse('+12025550114', 400, 21614, "'To' number is not a valid mobile number");
    const invalid = await sender().send(sms('+12025550113'))();
    const landline = await sender().send(sms('+12025550114'))();
    assert.ok(E.isLeft(invalid) && E.isLeft(landline));
    assert.deepEqual([invalid.left._tag, landline.left._tag], ['Permanent', 'Permanent']);
    assert.match(invalid.left.error, /Twilio 400 error 21211/);
  });

  it('reports 429, 5xx, bad credentials and no answer as transient', async () => {
    api.failNext(1, 429, 20429, 'Too Many Requests');
    api.failNext(1, 503, 20503, 'Service Unavailable');
    const limited = await sender().send(sms('+12025550115'))();
    const down = await sender().send(sms('+12025550115'))();
    const unauthorised = await sender({ authToken: 'wrong' }).send(sms('+12025550115'))();
    const nowhere = await twilioSmsSender({
      accountSid: api.accountSid,
      authToken: api.authToken,
      from: '+12025550100',
      apiBaseUrl: 'http://127.0.0.1:1',
    }).send(sms('+12025550115'))();
    assert.deepEqual(
      [limited, down, unauthorised, nowhere].map((r) => (E.isLeft(r) ? r.left._tag : 'Accepted')),
      ['Transient', 'Transient', 'Transient', 'Transient'],
    );
    assert.equal(api.sent.filter((s) => s.to === '+12025550115').length, 0);
  });
});
