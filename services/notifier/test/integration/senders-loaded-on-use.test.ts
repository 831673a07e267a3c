import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe('notifier: the Twilio SDK and undici are not loaded with the service (ADR 2740)', function () {
  this.timeout(60_000);

  it('importing the composition root loads neither; each adapter module loads its own', async () => {
    const src = (path: string) =>
      JSON.stringify(fileURLToPath(new URL(`../../src/${path}`, import.meta.url)));
    // A process of its own: this one may have loaded both through other tests.
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const loaded = () => ['twilio', 'undici'].filter((name) =>
        Object.keys(cache).some((path) => path.includes('/node_modules/' + name + '/')));
      await import(${src('service.ts')});
      const withService = loaded();
      await import(${src('adapters/twilio/twilio-sms-sender.ts')});
      const withSms = loaded();
      await import(${src('adapters/webhook-http/undici-webhook-sender.ts')});
      console.log(JSON.stringify({ withService, withSms, withWebhooks: loaded() }));`;
    const { stdout } = await run(
      process.execPath,
      ['--conditions=source', '--import=tsx', '--input-type=module', '-e', script],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
    );
    assert.deepEqual(JSON.parse(stdout), {
      withService: [],
      withSms: ['twilio'],
      withWebhooks: ['twilio', 'undici'],
    });
  });
});
