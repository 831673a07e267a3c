import assert from 'node:assert/strict';
import { hmacWebhookSignature as signatureHeader } from '../../src/adapters/crypto/hmac-webhook-signature.js';
import { readmeVerifier, type VerifyWebhook } from '../support/webhook-receiver.js';

const SECRET = 'whsec_current-secret-for-tests';
const OLD_SECRET = 'whsec_previous-secret-for-tests';
const body = JSON.stringify({
  id: 'e1',
  type: 'request.completed',
  created_at: '2030-01-31T12:00:00.000Z',
  site_id: 7,
  data: {},
});
const NOW = Date.parse('2030-01-31T12:00:00.000Z');
const t = Math.floor(NOW / 1000);

/** Signing (the notifier) against the receiver's check exactly as README.md documents it. */
describe('webhook signatures, verified with the README snippet', () => {
  let verifyWebhook: VerifyWebhook;
  before(async () => {
    ({ verifyWebhook } = await readmeVerifier());
  });

  it('accepts a fresh delivery signed with the secret', () => {
    const header = signatureHeader([SECRET], t, body);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.equal(verifyWebhook(SECRET, header, body, NOW), true);
    assert.equal(verifyWebhook(SECRET, header, body, NOW + 299_000), true);
  });

  it('detects a tampered body, a wrong secret and a stripped or garbled header', () => {
    const header = signatureHeader([SECRET], t, body);
    assert.equal(verifyWebhook(SECRET, header, body.replace('completed', 'cancelled'), NOW), false);
    assert.equal(verifyWebhook(SECRET, header, `${body} `, NOW), false);
    assert.equal(verifyWebhook('whsec_someone-else', header, body, NOW), false);
    assert.equal(verifyWebhook(SECRET, undefined, body, NOW), false);
    assert.equal(verifyWebhook(SECRET, `t=${t}`, body, NOW), false);
    assert.equal(verifyWebhook(SECRET, 'v1=zz,t=abc', body, NOW), false);
    // A signature moved to another timestamp no longer matches.
    const moved = header.replace(`t=${t}`, `t=${t + 10}`);
    assert.equal(verifyWebhook(SECRET, moved, body, NOW), false);
  });

  it('detects a replay: a captured delivery more than 5 minutes old (or ahead) is refused', () => {
    const header = signatureHeader([SECRET], t, body);
    assert.equal(verifyWebhook(SECRET, header, body, NOW + 301_000), false);
    assert.equal(verifyWebhook(SECRET, header, body, NOW - 301_000), false);
  });

  it('during a rotation carries both signatures, and either secret verifies', () => {
    const header = signatureHeader([SECRET, OLD_SECRET], t, body);
    assert.equal(header.split(',').filter((p) => p.startsWith('v1=')).length, 2);
    assert.equal(verifyWebhook(SECRET, header, body, NOW), true);
    assert.equal(verifyWebhook(OLD_SECRET, header, body, NOW), true);
    assert.equal(verifyWebhook('whsec_neither', header, body, NOW), false);
  });
});
