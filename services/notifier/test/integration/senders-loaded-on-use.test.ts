import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { inProcessOfItsOwn } from '@esign/testing';

describe('notifier: the Twilio SDK and undici are not loaded with the service (ADR 2740)', function () {
  this.timeout(60_000);

  it('importing the composition root loads neither; each adapter module loads its own', async () => {
    const src = (path: string) =>
      JSON.stringify(fileURLToPath(new URL(`../../src/${path}`, import.meta.url)));
    const seen = await inProcessOfItsOwn(
      fileURLToPath(new URL('../..', import.meta.url)),
      ['twilio', 'undici'],
      `await import(${src('service.ts')});
      const withService = loaded();
      await import(${src('adapters/twilio/twilio-sms-sender.ts')});
      const withSms = loaded();
      await import(${src('adapters/webhook-http/undici-webhook-sender.ts')});
      console.log(JSON.stringify({ withService, withSms, withWebhooks: loaded() }));`,
    );
    assert.deepEqual(seen, {
      withService: [],
      withSms: ['twilio'],
      withWebhooks: ['twilio', 'undici'],
    });
  });
});
