import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { inProcessOfItsOwn } from '@esign/testing';

describe('auth: the broker library is not loaded with it (ADR 2850)', function () {
  this.timeout(60_000);

  it('its composition root loads pg, which it uses, and not amqplib: startService loads that only with messaging', async () => {
    const src = JSON.stringify(fileURLToPath(new URL('../../src/service.ts', import.meta.url)));
    const seen = await inProcessOfItsOwn(
      fileURLToPath(new URL('../..', import.meta.url)),
      ['pg', 'amqplib'],
      `await import(${src});
      console.log(JSON.stringify(loaded()));`,
    );
    assert.deepEqual(seen, ['pg']);
  });
});
