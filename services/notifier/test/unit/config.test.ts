import assert from 'node:assert/strict';
import { ConfigError } from '@esign/platform';
import { testGatewayKeys } from '@esign/testing';
import { outboxDir, parseConfig } from '../../src/config.js';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
/** The variables without a default: the gateway's public key, and the key that seals webhook secrets. */
const BASE = {
  PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
  KEY_ENCRYPTION_KEYS: 'k1:a-test-key-encryption-secret-of-32-characters',
};

describe('notifier configuration', () => {
  it('runs on a bare machine: no SMTP, no Twilio, the local outbox under the working directory', () => {
    const config = parseConfig(BASE);
    assert.equal(config.PORT, 8083);
    assert.equal(config.SMTP_URL, undefined);
    assert.equal(config.TWILIO_ACCOUNT_SID, undefined);
    assert.equal(config.EMAIL_FROM, 'E-signature <no-reply@esign.localhost>');
    assert.equal(config.TWILIO_API_BASE_URL, 'https://api.twilio.com');
    assert.deepEqual(config.NOTIFIER_RETRY_DELAYS_MS, [1000, 5000, 30000, 120000, 600000]);
    assert.equal(outboxDir(config, '/srv/app'), '/srv/app/.data/outbox');
    assert.equal(
      outboxDir(parseConfig({ ...BASE, NOTIFIER_OUTBOX_DIR: '/var/mail/out' }), '/srv/app'),
      '/var/mail/out',
    );
  });

  it('reads SMTP, Twilio and the retry schedule', () => {
    const config = parseConfig({
      ...BASE,
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      EMAIL_FROM: 'no-reply@example.com',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+12025550100',
      TWILIO_API_BASE_URL: 'http://127.0.0.1:9999',
      NOTIFIER_RETRY_DELAYS_MS: '50, 100,200',
    });
    assert.equal(config.SMTP_URL, 'smtps://user:pass@mail.example.com:465');
    assert.equal(config.TWILIO_FROM, '+12025550100');
    assert.deepEqual(config.NOTIFIER_RETRY_DELAYS_MS, [50, 100, 200]);
  });

  it('refuses a partial Twilio configuration, naming what is missing', () => {
    assert.throws(
      () => parseConfig({ ...BASE, TWILIO_ACCOUNT_SID: SID }),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message.includes('TWILIO_AUTH_TOKEN is required when TWILIO_ACCOUNT_SID is set') &&
        e.message.includes('TWILIO_FROM is required when TWILIO_ACCOUNT_SID is set'),
    );
  });

  it('asks Twilio for its reports at an https address, only with Twilio (ADR 3880)', () => {
    const twilio = { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+12025550100' };
    const url = 'https://esign.example.com/callbacks/twilio/sms-status';
    assert.equal(
      parseConfig({ ...BASE, ...twilio, TWILIO_STATUS_CALLBACK_URL: url }).TWILIO_STATUS_CALLBACK_URL,
      url,
    );
    assert.equal(parseConfig({ ...BASE, ...twilio }).TWILIO_STATUS_CALLBACK_URL, undefined);
    assert.throws(
      () => parseConfig({ ...BASE, TWILIO_STATUS_CALLBACK_URL: url }),
      /TWILIO_STATUS_CALLBACK_URL is only used with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM/,
    );
    assert.throws(
      () => parseConfig({ ...BASE, ...twilio, TWILIO_STATUS_CALLBACK_URL: 'http://esign.example.com/x' }),
      /TWILIO_STATUS_CALLBACK_URL must be an https URL/,
    );
  });

  it('webhooks: https and public addresses only, retries for 3 days, unless configured otherwise', () => {
    const config = parseConfig(BASE);
    assert.equal(config.WEBHOOKS_ALLOW_HTTP, false);
    assert.equal(config.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES, false);
    assert.equal(config.WEBHOOKS_RETRY_WINDOW_MS, 3 * 86_400_000);
    assert.equal(config.WEBHOOKS_DISABLE_AFTER_MS, 3 * 86_400_000);
    const local = parseConfig({
      ...BASE,
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: '1',
    });
    assert.equal(local.WEBHOOKS_ALLOW_HTTP, true);
    assert.equal(local.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES, true);
  });

  it('L12: sends Twilio credentials over https only, plain http to loopback alone', () => {
    for (const url of [
      'https://api.twilio.com',
      'http://127.0.0.1:9999',
      'http://localhost:1',
      'http://[::1]:2',
    ])
      assert.equal(parseConfig({ ...BASE, TWILIO_API_BASE_URL: url }).TWILIO_API_BASE_URL, url);
    for (const url of ['http://api.twilio.com', 'http://10.0.0.5', 'ftp://127.0.0.1', 'not a url'])
      assert.throws(
        () => parseConfig({ ...BASE, TWILIO_API_BASE_URL: url }),
        /TWILIO_API_BASE_URL must be an https URL/,
        url,
      );
  });

  it('L11: needs the key-encryption keys that seal webhook secrets', () => {
    assert.throws(
      () => parseConfig({ PRINCIPAL_PUBLIC_KEY: BASE.PRINCIPAL_PUBLIC_KEY }),
      /KEY_ENCRYPTION_KEYS is required/,
    );
    assert.throws(
      () => parseConfig({ ...BASE, KEY_ENCRYPTION_KEYS: 'k1:short' }),
      /KEY_ENCRYPTION_KEYS secret of k1 must be at least 32 characters/,
    );
  });

  it("M5: needs the gateway's public key, and refuses a shared secret or the private key", () => {
    assert.throws(() => parseConfig({}), /PRINCIPAL_PUBLIC_KEY is required/);
    assert.throws(
      () => parseConfig({ PRINCIPAL_PUBLIC_KEY: 'an-internal-secret-of-32-characters' }),
      /PRINCIPAL_PUBLIC_KEY must be an Ed25519 public key/,
    );
    assert.throws(
      () => parseConfig({ PRINCIPAL_PUBLIC_KEY: testGatewayKeys.signingKeyEnv }),
      /PRINCIPAL_PUBLIC_KEY must be the public key only/,
    );
  });

  it('takes the operators’ contact as an e-mail address or an https page, and none by default', () => {
    assert.equal(parseConfig(BASE).OPERATOR_CONTACT, undefined);
    assert.equal(
      parseConfig({ ...BASE, OPERATOR_CONTACT: 'support@esign.example' }).OPERATOR_CONTACT,
      'support@esign.example',
    );
    assert.equal(
      parseConfig({ ...BASE, OPERATOR_CONTACT: ' https://esign.example/support ' }).OPERATOR_CONTACT,
      'https://esign.example/support',
    );
  });

  it('names each wrong variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ SMTP_URL: 'http://mail.example.com' }, /SMTP_URL must be a smtp or smtps URL/],
      [{ EMAIL_FROM: 'nobody' }, /EMAIL_FROM must be an e-mail address/],
      [
        { OPERATOR_CONTACT: 'http://esign.example/support' },
        /OPERATOR_CONTACT must be an e-mail address .* or an https address/,
      ],
      [{ OPERATOR_CONTACT: 'call us' }, /OPERATOR_CONTACT must be an e-mail address/],
      [
        { TWILIO_ACCOUNT_SID: 'SK123', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+12025550100' },
        /TWILIO_ACCOUNT_SID must be a Twilio Account SID/,
      ],
      [
        { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '2025550100' },
        /TWILIO_FROM must be a phone number in E\.164/,
      ],
      [
        { NOTIFIER_RETRY_DELAYS_MS: '1000,soon' },
        /NOTIFIER_RETRY_DELAYS_MS must be 1 to 20 comma-separated delays/,
      ],
      [{ NOTIFIER_PREFETCH: '0' }, /NOTIFIER_PREFETCH must be an integer between 1 and 1000/],
      [{ WEBHOOKS_ALLOW_HTTP: 'maybe' }, /WEBHOOKS_ALLOW_HTTP must be true or false/],
      [{ WEBHOOKS_CONNECT_TIMEOUT_MS: '0' }, /WEBHOOKS_CONNECT_TIMEOUT_MS must be an integer between 100/],
    ];
    for (const [env, message] of cases) assert.throws(() => parseConfig({ ...BASE, ...env }), message);
  });
});
