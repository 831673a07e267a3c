import assert from 'node:assert/strict';
import { createTestDatabase, startService, type RunningService, type TestDatabase } from '@esign/testing';

/**
 * The built auth service as `npm start` runs it, with the broker out of reach: auth only
 * publishes, through its outbox (ADR 3000), so it is ready and answers as before.
 */
describe('auth service: the real process (built), without a broker', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let service: RunningService;

  before(async () => {
    database = await createTestDatabase('auth_process');
    service = await startService('auth', {
      DATABASE_URL: database.url,
      // Nothing listens on port 1: every connection attempt is refused.
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:1',
      INTROSPECTION_SECRET: 'an-introspection-secret-of-enough-length-0',
      KEY_ENCRYPTION_KEYS: 'k1:a-key-encryption-secret-of-enough-length-0',
      PUBLIC_BASE_URL: 'https://esign.example',
    });
  });

  after(async () => {
    if (service.process.exitCode === null) await service.stop();
    await database.drop();
  });

  it('is ready, and answers sign-ins and password-reset requests, while RabbitMQ cannot be reached', async () => {
    const ready = await fetch(`${service.url}/readyz`);
    assert.equal(ready.status, 200, await ready.text());
    const signIn = await fetch(`${service.url}/v1.1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@acme.test', password: 'not a password' }),
    });
    assert.equal(signIn.status, 401);
    const reset = await fetch(`${service.url}/v1.1/password-resets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@acme.test' }),
    });
    assert.equal(reset.status, 202);
  });
});
