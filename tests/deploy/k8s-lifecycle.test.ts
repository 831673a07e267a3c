// k8s/: how every overlay's pods live: probes on the ports they listen on, a termination
// grace longer than the preStop pause and the drain, and the migrations run in a Job before
// the rollouts need them, each with only its database URL (split from k8s.test.ts, which
// renders and validates the same overlays).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/paths.js';
import { renderOverlay, type Any, type RenderedOverlay } from './support/k8s-overlay.js';
import { allServiceConfigs, serviceOfCommand, type ServiceConfig } from './support/service-config.js';

/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return --
   The manifests are read as plain data (support/k8s-overlay.ts). */

const overlays = readdirSync(join(repoRoot, 'k8s', 'overlays')).sort();
const drainMs = Number(
  /graceMs \?\? ([\d_]+)/
    .exec(readFileSync(join(repoRoot, 'libs/platform/src/lifecycle.ts'), 'utf8'))![1]!
    .replace(/_/g, ''),
);

let configs: ServiceConfig[];
before(async () => {
  configs = await allServiceConfigs();
});

for (const overlay of overlays) {
  describe(`k8s overlay ${overlay}: pods' lifecycle`, () => {
    let all: RenderedOverlay['all'];
    let workloads: RenderedOverlay['workloads'];
    let configMaps: RenderedOverlay['configMaps'];
    let deploymentOf: RenderedOverlay['deploymentOf'];
    before(() => {
      ({ all, workloads, configMaps, deploymentOf } = renderOverlay(overlay));
    });

    it('probes every service: startup and liveness on /healthz, readiness on /readyz, on the port it listens on', () => {
      for (const { service } of configs) {
        const [container, ...sidecars] = deploymentOf(service).spec.template.spec.containers;
        assert.equal(sidecars.length, 0);
        const port = (name: string | number) =>
          typeof name === 'number' ? name : container.ports.find((p: Any) => p.name === name)?.containerPort;
        const listens = Number(
          [...(container.envFrom ?? [])]
            .map((s: Any) => configMaps.get(s.configMapRef?.name)?.PORT)
            .find((p) => p !== undefined) ?? configs.find((c) => c.service === service)!.defaults.PORT,
        );
        // L12: a service with an operations port (the gateway) is ready there, not on its public port.
        const opsPort = Number(
          [...(container.envFrom ?? [])]
            .map((s: Any) => configMaps.get(s.configMapRef?.name)?.OPS_PORT)
            .find((p) => p !== undefined) ?? configs.find((c) => c.service === service)!.defaults.OPS_PORT,
        );
        for (const [probe, path] of [
          ['startupProbe', '/healthz'],
          ['livenessProbe', '/healthz'],
          ['readinessProbe', '/readyz'],
        ] as const) {
          const httpGet = container[probe]?.httpGet;
          assert.equal(httpGet?.path, path, `${service}: ${probe}`);
          const expected = probe === 'readinessProbe' && !Number.isNaN(opsPort) ? opsPort : listens;
          assert.equal(port(httpGet.port), expected, `${service}: ${probe} port`);
        }
        if (!Number.isNaN(opsPort)) {
          const scraped = deploymentOf(service).spec.template.metadata.annotations?.['prometheus.io/port'];
          assert.equal(Number(scraped), opsPort, `${service}: Prometheus scrapes the operations port`);
          const exposed = all('Service').find((s) => s.metadata.name === service);
          assert.ok(
            !exposed.spec.ports.some((p: Any) => p.targetPort === 'ops' || p.targetPort === opsPort),
            `${service}: the operations port is not behind the Service`,
          );
        }
        // Start-up runs migrations: the startup probe allows a minute or more.
        const startup = container.startupProbe;
        assert.ok(
          (startup.periodSeconds ?? 10) * (startup.failureThreshold ?? 3) >= 60,
          `${service}: startup window`,
        );
      }
    });

    it("gives every pod more termination grace than the preStop pause plus the services' drain", () => {
      for (const { service } of configs) {
        const pod = deploymentOf(service).spec.template.spec;
        const preStop = pod.containers[0].lifecycle?.preStop;
        const pause = Number(preStop?.sleep?.seconds ?? preStop?.exec?.command?.at(-1) ?? 0);
        assert.ok(pause > 0, `${service}: preStop pause while endpoints update`);
        assert.ok(
          pod.terminationGracePeriodSeconds >= pause + drainMs / 1000 + 5,
          `${service}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} < ${pause} + ${drainMs / 1000} + 5`,
        );
      }
    });

    it('migrates every database in a Job before rollouts need it', () => {
      const jobs = all('Job');
      for (const config of configs.filter((c) => c.variables.has('DATABASE_URL'))) {
        const job = jobs.find((j) =>
          j.spec.template.spec.containers.some((c: Any) => {
            const runs = serviceOfCommand(c.args ?? []);
            return runs?.service === config.service && runs.entry === 'migrate';
          }),
        );
        assert.ok(job !== undefined, `no migration Job for ${config.service}`);
        assert.ok(['OnFailure', 'Never'].includes(job.spec.template.spec.restartPolicy));
        assert.ok(job.spec.backoffLimit !== undefined && job.spec.activeDeadlineSeconds !== undefined);
      }
    });

    it('L12: gives each migration container only its database URL (from its service’s Secret) and the log level', () => {
      const jobs = all('Job');
      assert.ok(jobs.length > 0);
      for (const job of jobs) {
        for (const container of job.spec.template.spec.containers) {
          const runs = serviceOfCommand(container.args ?? []);
          if (runs?.entry !== 'migrate') continue;
          const at = `Job/${job.metadata.name} ${container.name}`;
          assert.deepEqual(container.envFrom ?? [], [], `${at}: no ConfigMap or Secret wholesale`);
          const names = (container.env ?? []).map((e: Any) => e.name).sort();
          assert.deepEqual(
            names.filter((n: string) => n !== 'DATABASE_URL' && n !== 'LOG_LEVEL'),
            [],
            `${at} is given more than it needs`,
          );
          const url = (container.env ?? []).find((e: Any) => e.name === 'DATABASE_URL');
          assert.equal(url?.valueFrom?.secretKeyRef?.name, `esign-${runs.service}`, at);
        }
      }
    });

    if (overlay === 'prod')
      it('L12: pins every image by digest (name@sha256:<64 hex>), never by a tag that can move', () => {
        for (const { object, containers } of workloads)
          for (const container of containers)
            assert.match(
              container.image,
              /^[a-z0-9.-]+(:\d+)?(\/[a-z0-9._-]+)+@sha256:[0-9a-f]{64}$/,
              `${object.kind}/${object.metadata.name} ${container.name}`,
            );
      });
  });
}
