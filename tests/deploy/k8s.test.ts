// k8s/: every overlay rendered with `kubectl kustomize`, every object validated against
// the Kubernetes schemas (and for unknown fields), and the platform's invariants held
// for every container, every service and the network between them.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/paths.js';
import { schemaErrors, unknownFieldErrors } from './support/kubernetes.js';
import { renderOverlay, type Any, type RenderedOverlay } from './support/k8s-overlay.js';
import { matches } from './support/network-policy.js';
import {
  allServiceConfigs,
  entryConfig,
  looksSecret,
  serviceOfCommand,
  type ServiceConfig,
} from './support/service-config.js';

/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return --
   The rendered manifests are validated against the Kubernetes schemas by the first test
   of each overlay; the checks then read them as plain data, which keeps each one short. */

const overlays = readdirSync(join(repoRoot, 'k8s', 'overlays')).sort();
const secretsDoc = readFileSync(join(repoRoot, 'k8s', 'README.md'), 'utf8');

const quantity = (value: string | number): number => {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(String(value));
  assert.ok(match !== null, `quantity ${value}`);
  const units: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
  };
  return Number(match[1]) * (match[2] === undefined ? 1 : units[match[2]]!);
};

let configs: ServiceConfig[];
before(async () => {
  configs = await allServiceConfigs();
});

it('k8s/overlays has at least dev and prod', () => {
  assert.ok(overlays.includes('dev') && overlays.includes('prod'), overlays.join(', '));
});

for (const overlay of overlays) {
  describe(`k8s overlay ${overlay}`, () => {
    let objects: RenderedOverlay['objects'];
    let all: RenderedOverlay['all'];
    let named: RenderedOverlay['named'];
    let workloads: RenderedOverlay['workloads'];
    let configMaps: RenderedOverlay['configMaps'];
    let deploymentOf: RenderedOverlay['deploymentOf'];

    before(() => {
      ({ objects, all, named, workloads, configMaps, deploymentOf } = renderOverlay(overlay));
    });

    it('renders objects that are valid against the Kubernetes schemas', async () => {
      assert.ok(objects.length > 0);
      const errors = (await Promise.all(objects.map(async (o) => [o, await schemaErrors(o)] as const)))
        .filter(([, error]) => error !== undefined)
        .map(([o, error]) => `${o.kind}/${o.metadata.name}: ${error}`);
      assert.deepEqual(errors, []);
    });

    it('renders no field Kubernetes would silently ignore', () => {
      assert.deepEqual(unknownFieldErrors(objects), []);
    });

    it('puts everything in one namespace that enforces the restricted Pod Security Standard', () => {
      const [namespace, ...others] = all('Namespace');
      assert.ok(namespace !== undefined && others.length === 0, 'one Namespace');
      assert.equal(namespace.metadata.labels['pod-security.kubernetes.io/enforce'], 'restricted');
      for (const o of objects.filter((o) => o.kind !== 'Namespace')) {
        assert.equal(o.metadata.namespace, namespace.metadata.name, `${o.kind}/${o.metadata.name}`);
      }
    });

    it('commits no secret values: no Secret objects, only references to documented Secrets', () => {
      assert.deepEqual(all('Secret'), []);
      const references = workloads.flatMap((w) =>
        w.containers.flatMap((c: Any) => [
          ...(c.env ?? []).flatMap((e: Any) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])),
          ...(c.envFrom ?? []).flatMap((e: Any) =>
            e.secretRef ? [{ name: e.secretRef.name, key: '*' }] : [],
          ),
        ]),
      );
      assert.ok(references.length > 0);
      for (const { name, key } of references) {
        assert.notEqual(key, '*', `envFrom secretRef ${name}: name each key, so the tests can see it`);
        assert.ok(
          secretsDoc.split('\n').some((line) => line.includes(`\`${name}\``) && line.includes(`\`${key}\``)),
          `k8s/README.md does not document ${name}/${key}`,
        );
      }
      for (const [name, data] of configMaps) {
        for (const [key, value] of Object.entries(data)) {
          assert.ok(!looksSecret(key), `ConfigMap ${name}: ${key} is a credential; reference a Secret`);
          const url = URL.canParse(value) ? new URL(value) : undefined;
          assert.ok(url === undefined || url.password === '', `ConfigMap ${name}: ${key} carries a password`);
        }
      }
    });

    it('runs every service as a Deployment behind a Service, with a PodDisruptionBudget and an autoscaler', () => {
      for (const { service } of configs) {
        const deployment = deploymentOf(service);
        assert.ok(deployment !== undefined, `no Deployment ${service}`);
        const labels = deployment.spec.template.metadata.labels;
        assert.ok(matches(deployment.spec.selector, labels), `${service}: selector`);
        assert.equal(deployment.spec.replicas, undefined, `${service}: replicas belong to the autoscaler`);
        assert.equal(
          deployment.spec.strategy?.rollingUpdate?.maxUnavailable,
          0,
          `${service}: rollout keeps capacity`,
        );

        const svc = named('Service', service);
        assert.ok(
          svc !== undefined && matches({ matchLabels: svc.spec.selector }, labels),
          `${service}: Service`,
        );

        const pdbs = all('PodDisruptionBudget').filter((p) => matches(p.spec.selector, labels));
        assert.equal(pdbs.length, 1, `${service}: one PodDisruptionBudget`);
        const hpa = all('HorizontalPodAutoscaler').find(
          (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === service,
        );
        assert.ok(hpa !== undefined, `${service}: HorizontalPodAutoscaler`);
        assert.ok(hpa.spec.minReplicas >= 1 && hpa.spec.minReplicas <= hpa.spec.maxReplicas);
        assert.ok(hpa.spec.metrics?.length > 0);
        // The budget must let a node drain: at least one pod may always go.
        const pdb = pdbs[0];
        assert.ok(
          (pdb.spec.maxUnavailable ?? 0) >= 1 ||
            (typeof pdb.spec.minAvailable === 'number' && pdb.spec.minAvailable < hpa.spec.minReplicas),
          `${service}: PodDisruptionBudget would block drains`,
        );
      }
    });

    it('gives every container (services and migrations) the restricted securityContext, resources and a writable /tmp only', () => {
      assert.ok(workloads.length > configs.length);
      for (const { object, pod, containers } of workloads) {
        const where = `${object.kind}/${object.metadata.name}`;
        assert.equal(pod.automountServiceAccountToken, false, `${where}: no API token`);
        assert.equal(pod.enableServiceLinks, false, `${where}: no service-link variables`);
        for (const key of ['hostNetwork', 'hostPID', 'hostIPC']) assert.notEqual(pod[key], true, where);
        assert.equal(pod.initContainers, undefined, `${where}: init containers are not checked here`);
        for (const container of containers) {
          const at = `${where} ${container.name}`;
          const effective = { ...pod.securityContext, ...container.securityContext };
          assert.equal(effective.runAsNonRoot, true, `${at}: runAsNonRoot`);
          assert.notEqual(effective.runAsUser, 0, `${at}: runAsUser`);
          assert.equal(
            container.securityContext?.allowPrivilegeEscalation,
            false,
            `${at}: allowPrivilegeEscalation`,
          );
          assert.equal(
            container.securityContext?.readOnlyRootFilesystem,
            true,
            `${at}: readOnlyRootFilesystem`,
          );
          assert.notEqual(container.securityContext?.privileged, true, at);
          assert.deepEqual(container.securityContext?.capabilities, { drop: ['ALL'] }, `${at}: capabilities`);
          assert.equal(effective.seccompProfile?.type, 'RuntimeDefault', `${at}: seccomp`);

          const { requests = {}, limits = {} } = container.resources ?? {};
          for (const resource of ['cpu', 'memory']) {
            assert.ok(
              requests[resource] !== undefined && limits[resource] !== undefined,
              `${at}: ${resource}`,
            );
            assert.ok(
              quantity(requests[resource]) <= quantity(limits[resource]),
              `${at}: ${resource} request > limit`,
            );
          }

          const tmp = (container.volumeMounts ?? []).find((m: Any) => m.mountPath === '/tmp');
          const volume = pod.volumes?.find((v: Any) => v.name === tmp?.name);
          assert.ok(volume?.emptyDir !== undefined, `${at}: /tmp from an emptyDir`);
          assert.ok(
            (container.volumeMounts ?? []).every((m: Any) => m.mountPath === '/tmp' || m.readOnly === true),
            `${at}: only /tmp is writable`,
          );

          assert.equal(
            container.command,
            undefined,
            `${at}: command replaces the image's tini entrypoint; use args`,
          );
          const runs = serviceOfCommand(container.args ?? []);
          assert.ok(
            runs !== undefined && container.args[0] === 'node',
            `${at}: args run a service entry point`,
          );
          assert.ok(
            existsSync(join(repoRoot, 'services', runs.service, 'src', `${runs.entry}.ts`)),
            `${at}: no such source`,
          );
          assert.doesNotMatch(container.image, /:latest$|^[^:@]+$/, `${at}: image must name a tag or digest`);
        }
      }
    });

    it("sets every variable each container's service requires; credentials from Secrets, values its codec accepts", () => {
      for (const { object, containers } of workloads) {
        for (const container of containers) {
          const at = `${object.kind}/${object.metadata.name} ${container.name}`;
          const { service, entry } = serviceOfCommand(container.args)!;
          const config = entryConfig(
            configs.find((c) => c.service === service)!,
            entry,
          );
          const fromConfigMaps = new Map<string, string>();
          for (const source of container.envFrom ?? []) {
            if (source.configMapRef === undefined) continue;
            const data = configMaps.get(source.configMapRef.name);
            assert.ok(data !== undefined, `${at}: ConfigMap ${source.configMapRef.name} is not rendered`);
            for (const [key, value] of Object.entries(data)) fromConfigMaps.set(key, value);
          }
          const env = new Map<string, Any>((container.env ?? []).map((e: Any) => [e.name, e]));
          const missing = config.mustSet
            .filter((v) => !env.has(v.name) && !fromConfigMaps.has(v.name))
            .map((v) => v.name);
          assert.deepEqual(missing, [], `${at} lacks ${missing.join(', ')}`);
          for (const variable of config.variables.values()) {
            const entry = env.get(variable.name);
            const value =
              entry?.value ?? (entry === undefined ? fromConfigMaps.get(variable.name) : undefined);
            if (variable.secret && (entry !== undefined || value !== undefined)) {
              assert.ok(
                entry?.valueFrom?.secretKeyRef !== undefined,
                `${at}: ${variable.name} must come from a Secret`,
              );
            }
            if (value !== undefined) {
              const decoded = variable.codec.decode(value);
              assert.equal(decoded._tag, 'Right', `${at}: ${variable.name}=${value} is refused by its codec`);
            }
            if (entry?.valueFrom?.secretKeyRef?.optional === true) {
              assert.ok(
                !variable.required,
                `${at}: ${variable.name} is required; its Secret key cannot be optional`,
              );
            }
          }
        }
      }
    });
  });
}
