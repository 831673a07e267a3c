import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { inProcessOfItsOwn } from '@esign/testing';

describe('gateway: no database or broker library is loaded with it (ADR 2850)', function () {
  this.timeout(60_000);

  it('its composition root loads neither pg nor amqplib; the platform entries that hold them do', async () => {
    const src = JSON.stringify(fileURLToPath(new URL('../../src/service.ts', import.meta.url)));
    // pg and amqplib are CommonJS, which the probe can see; slonik, all ES modules, is
    // seen through pg, which its driver loads with it.
    const seen = await inProcessOfItsOwn(
      fileURLToPath(new URL('../..', import.meta.url)),
      ['pg', 'amqplib'],
      `await import(${src});
      const withGateway = loaded();
      await import('@esign/platform/database');
      const withDatabase = loaded();
      await import('@esign/platform/messaging');
      console.log(JSON.stringify({ withGateway, withDatabase, withMessaging: loaded() }));`,
    );
    assert.deepEqual(seen, { withGateway: [], withDatabase: ['pg'], withMessaging: ['pg', 'amqplib'] });
  });
});
