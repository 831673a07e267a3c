import assert from 'node:assert/strict';
import twilio from 'twilio';
import { classifySmtpError } from '../../src/adapters/smtp/smtp-email-sender.js';
import { classifyTwilioError } from '../../src/adapters/twilio/twilio-sms-sender.js';

const smtp = (responseCode: number | undefined, command: string, code = 'EENVELOPE') =>
  classifySmtpError(Object.assign(new Error(`${responseCode ?? ''} reply`), { responseCode, command, code }))
    ._tag;

const rest = (status: number, code?: number) =>
  classifyTwilioError(new twilio.RestException({ statusCode: status, body: { code, message: 'x' } }))._tag;

describe('notifier adapters: which provider failures are worth a retry', () => {
  it('SMTP: 5xx for the recipient or the message is permanent; 4xx, 503 and our own setup retry', () => {
    assert.equal(smtp(550, 'RCPT TO'), 'Permanent');
    assert.equal(smtp(554, 'DATA', 'EMESSAGE'), 'Permanent');
    assert.equal(smtp(450, 'RCPT TO'), 'Transient');
    assert.equal(smtp(421, 'CONN', 'ECONNECTION'), 'Transient');
    assert.equal(smtp(503, 'RCPT TO'), 'Transient');
    assert.equal(smtp(535, 'AUTH PLAIN', 'EAUTH'), 'Transient');
    assert.equal(smtp(550, 'MAIL FROM'), 'Transient');
    assert.equal(smtp(undefined, 'CONN', 'ESOCKET'), 'Transient');
    assert.equal(smtp(undefined, 'API'), 'Permanent');
  });

  it('Twilio: 400 is about this message; 429, 5xx, credentials and no answer retry', () => {
    assert.equal(rest(400, 21211), 'Permanent');
    assert.equal(rest(400, 21614), 'Permanent');
    assert.equal(rest(429, 20429), 'Transient');
    assert.equal(rest(500), 'Transient');
    assert.equal(rest(503), 'Transient');
    assert.equal(rest(401, 20003), 'Transient');
    assert.equal(
      classifyTwilioError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))._tag,
      'Transient',
    );
    assert.match(
      classifyTwilioError(
        new twilio.RestException({ statusCode: 400, body: { code: 21211, message: 'bad To' } }),
      ).error,
      /Twilio 400 error 21211: bad To/,
    );
  });
});
