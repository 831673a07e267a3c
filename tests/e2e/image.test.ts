// The service image, built and run: scripts/images.sh builds it (making its base image
// from Debian and npm where no registry is reachable), then each service runs from it in
// a container, with the restrictions compose and Kubernetes apply, against the machine's
// Postgres, RabbitMQ and Redis, and the client flow passes through them end to end.
// Needs a Docker engine: .ci/run starts one; elsewhere the suite is skipped and says so.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot, startEsignSystem, type EsignSystem } from '@esign/testing';
import {
  agreementRequest,
  clientOf,
  completedPdf,
  executionUrlIn,
  ok,
  publishedAgreement,
  unique,
  uniqueMobile,
  waitForMail,
  waitForSms,
  type ClientOf,
} from './support/flow.js';
import { signAt } from './support/signer.js';

const run = promisify(execFile);
const IMAGE = process.env.ESIGN_TEST_IMAGE ?? 'esign:local';
/** The size the image must stay under (docs/adr/0907): Node alone is 127 MB of it. */
const MAX_IMAGE_MB = 200;

const engineAnswers = (): boolean => spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
const docker = async (...args: string[]): Promise<string> =>
  (await run('docker', args, { maxBuffer: 16 * 1024 * 1024 })).stdout.trim();

describe('the service image, built here and run as containers', function () {
  // Building takes minutes on a busy 2-core machine; nothing here measures speed.
  this.timeout(180_000);
  let system: EsignSystem | undefined;

  before(function () {
    if (!engineAnswers()) {
      console.warn('  (no Docker engine answers: the image suite is skipped; .ci/run starts one)');
      this.skip();
    }
    this.timeout(1_800_000);
    const built = spawnSync('bash', ['scripts/images.sh'], {
      cwd: repoRoot,
      env: { ...process.env, ESIGN_IMAGE: IMAGE },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(built.status, 0, `scripts/images.sh failed:\n${built.stdout}\n${built.stderr}`);
  });
  after(async () => {
    await system?.stop();
  });

  it(`is at most ${MAX_IMAGE_MB} MB`, async () => {
    const bytes = Number(await docker('image', 'inspect', IMAGE, '--format', '{{.Size}}'));
    assert.ok(bytes > 0);
    assert.ok(bytes <= MAX_IMAGE_MB * 1_000_000, `${(bytes / 1_000_000).toFixed(1)} MB`);
  });

  it('runs as a numeric non-root user, with tini as PID 1, and carries no npm and no shell', async () => {
    const config = JSON.parse(await docker('image', 'inspect', IMAGE, '--format', '{{json .Config}}')) as {
      User: string;
      Entrypoint: string[];
    };
    assert.match(config.User, /^[1-9]\d*:\d+$/, 'a numeric uid other than 0');
    assert.deepEqual(config.Entrypoint, ['/usr/bin/tini', '--']);
    const probe = await docker(
      'run',
      '--rm',
      '--network',
      'host',
      '--read-only',
      IMAGE,
      'node',
      '-e',
      `const fs = require('node:fs');
       const found = (p) => fs.existsSync(p);
       console.log(JSON.stringify({
         pid1: fs.readFileSync('/proc/1/comm', 'utf8').trim(),
         uid: process.getuid(),
         npm: ['/usr/local/bin/npm', '/usr/local/lib/node_modules/npm', '/usr/bin/npm'].some(found),
         shell: ['/bin/sh', '/bin/bash', '/usr/bin/sh'].some(found),
         node: process.versions.node,
       }));`,
    );
    const seen = JSON.parse(probe) as {
      pid1: string;
      uid: number;
      npm: boolean;
      shell: boolean;
      node: string;
    };
    assert.equal(seen.pid1, 'tini');
    assert.equal(seen.uid, 1000);
    assert.equal(seen.npm, false, 'no npm in the image');
    assert.equal(seen.shell, false, 'no shell in the image');
    assert.match(seen.node, /^24\./);
  });

  describe('every service from the image', () => {
    let acme: ClientOf;

    // A file the tracer left out shows as an error in a container's log: print them.
    afterEach(async function () {
      if (this.currentTest?.state !== 'failed' || system === undefined) return;
      // The engine streams a container's output a moment behind.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      for (const service of Object.values(system.services))
        console.error(`--- ${service.name} (container log, tail)\n${service.output().slice(-4000)}`);
    });

    before(async function () {
      this.timeout(300_000);
      system = await startEsignSystem({ label: 'image', image: IMAGE, startTimeoutMs: 120_000 });
      acme = clientOf(system, await system.createTenant('AcmeImage'));
    });

    it('answers /healthz and /readyz in each container', async () => {
      for (const service of Object.values(system!.services)) {
        // The gateway's /readyz is on its operations port (compose.test.ts probes it there).
        for (const probe of service.name === 'gateway' ? ['/healthz'] : ['/healthz', '/readyz']) {
          const answer = await fetch(`${service.url}${probe}`);
          assert.equal(answer.status, 200, `${service.name} ${probe}: ${await answer.text()}`);
        }
      }
    });

    it('hands free malloc memory back in each container: koffi and its binary shipped (ADR 2750)', async () => {
      for (const service of Object.values(system!.services)) {
        // The gateway's /metrics is on its operations port, which the harness does not publish.
        if (service.name === 'gateway') continue;
        const text = await (await fetch(`${service.url}/metrics`)).text();
        assert.match(text, /^process_malloc_trim_enabled\{[^}]*\} 1$/m, service.name);
      }
    });

    it('runs the client flow: template → create → send → e-mail and SMS → sign → executed PDF', async () => {
      const template = await publishedAgreement(acme);
      const email = `image-${unique()}@example.com`;
      const mobile = uniqueMobile();
      const created = ok(
        await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
          params: { path: { site_id: acme.site } },
          body: agreementRequest(template, { email, mobile }),
        }),
        201,
        'create',
      );
      ok(
        await acme.esign.POST('/v1.1/requests/{request_id}/send', {
          params: { path: { request_id: created.id } },
        }),
        200,
        'send',
      );
      const mail = await waitForMail(system!, email, 60_000);
      const sms = await waitForSms(system!, `+1${mobile}`, 60_000);
      for (const url of [executionUrlIn(mail.mail.text ?? ''), executionUrlIn(sms.body)]) {
        const signed = await signAt(url, 'Ada Container');
        assert.equal(signed.status, 303, signed.page.slice(0, 500));
      }
      // The executed PDF draws text with the fonts the image must carry.
      await completedPdf(acme, created.id);
    });
  });
});
