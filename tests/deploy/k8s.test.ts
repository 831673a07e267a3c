// k8s/: every overlay rendered with `kubectl kustomize`, every object validated against
// the Kubernetes schemas (and for unknown fields), and the platform's invariants held
// for every container, every service and the network between them.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/paths.js';
import { render, schemaErrors, unknownFieldErrors, type K8sObject } from './support/kubernetes.js';
import { allowed, matches, type Endpoint, type NetworkPolicySpec } from './support/network-policy.js';
import {
  allServiceConfigs,
  entryConfig,
  looksSecret,
  serviceOfCommand,
  type ServiceConfig,
} from './support/service-config.js';

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return --
   The rendered manifests are validated against the Kubernetes schemas by the first test
   of each overlay; the checks then read them as plain data, which keeps each one short. */
type Any = any;

const overlays = readdirSync(join(repoRoot, 'k8s', 'overlays')).sort();
const drainMs = Number(
  /graceMs \?\? ([\d_]+)/
    .exec(readFileSync(join(repoRoot, 'libs/platform/src/lifecycle.ts'), 'utf8'))![1]!
    .replace(/_/g, ''),
);
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

interface Workload {
  readonly object: Any;
  readonly pod: Any;
  readonly containers: Any[];
}

let configs: ServiceConfig[];
before(async () => {
  configs = await allServiceConfigs();
});

it('k8s/overlays has at least dev and prod', () => {
  assert.ok(overlays.includes('dev') && overlays.includes('prod'), overlays.join(', '));
});

for (const overlay of overlays) {
  describe(`k8s overlay ${overlay}`, () => {
    let objects: K8sObject[];
    const all = (kind: string): Any[] => objects.filter((o) => o.kind === kind);
    const named = (kind: string, name: string): Any =>
      objects.find((o) => o.kind === kind && o.metadata.name === name);
    let workloads: Workload[];
    let configMaps: Map<string, Record<string, string>>;

    before(() => {
      objects = render(`k8s/overlays/${overlay}`);
      workloads = objects
        .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
        .map((o: Any) => ({
          object: o,
          pod: o.spec.template.spec,
          containers: o.spec.template.spec.containers,
        }));
      configMaps = new Map(all('ConfigMap').map((c) => [c.metadata.name, c.data ?? {}]));
    });
    const deploymentOf = (service: string): Any => named('Deployment', service);

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

    it("MEDIUM 3: takes the client's address, not the ingress controller's, for the audit trail and sign-in limits", () => {
      const configOf = (service: string): Record<string, string> => ({
        ...configs.find((c) => c.service === service)!.defaults,
        ...deploymentOf(service)
          .spec.template.spec.containers[0].envFrom.map(
            (s: Any) => configMaps.get(s.configMapRef?.name) ?? {},
          )
          .reduce((a: Any, b: Any) => ({ ...a, ...b }), {}),
      });
      const client = '198.51.100.23';
      const ingressPod = '10.244.0.5';
      const gatewayPod = '10.244.1.9';
      // ingress-nginx sends X-Forwarded-For: <client> (or "<what the client sent>, <client>"
      // with compute-full-forwarded-for); the gateway appends the ingress pod's address,
      // keeping what came before only with TRUST_PROXY (safe: only the ingress reaches it).
      for (const arriving of [[client], ['203.0.113.66', client]]) {
        const forwarded =
          configOf('gateway').TRUST_PROXY === 'true' ? [...arriving, ingressPod] : [ingressPod];
        for (const service of ['requests', 'auth']) {
          // Each service reads TRUSTED_PROXY_HOPS entries back from its socket peer (the gateway).
          const hops = Number(configOf(service).TRUSTED_PROXY_HOPS);
          const chain = [...forwarded, gatewayPod];
          assert.equal(chain[Math.max(0, chain.length - 1 - hops)], client, `${service} (hops ${hops})`);
        }
      }
    });

    it('routes public traffic to the gateway on the host of PUBLIC_BASE_URL (with TLS for https)', () => {
      const ingresses = all('Ingress');
      assert.equal(ingresses.length, 1);
      const ingress = ingresses[0];
      const gatewayConfig = deploymentOf('gateway')
        .spec.template.spec.containers[0].envFrom.map((s: Any) => configMaps.get(s.configMapRef.name) ?? {})
        .reduce((a: Any, b: Any) => ({ ...a, ...b }), {});
      const base = new URL(gatewayConfig.PUBLIC_BASE_URL);
      for (const rule of ingress.spec.rules) {
        assert.equal(rule.host, base.hostname);
        assert.ok(
          rule.http.paths.some((p: Any) => p.path === '/v1.1'),
          'the API is routed',
        );
        // LOW 12 of issue #18: machine clients need the token endpoint and the JWKS too.
        for (const exact of ['/oauth/token', '/.well-known/jwks.json'])
          assert.ok(
            rule.http.paths.some((p: Any) => p.path === exact && p.pathType === 'Exact'),
            `LOW 12: ${exact} is routed`,
          );
        // Issue 24: the authorization-code grant reaches the consent page under /app.
        // ADR 3880: Twilio reaches the notifier's status callback through the gateway.
        for (const exact of [
          '/oauth/authorize',
          '/oauth/revoke',
          '/.well-known/oauth-authorization-server',
          '/callbacks/twilio/sms-status',
        ])
          assert.ok(
            rule.http.paths.some((p: Any) => p.path === exact && p.pathType === 'Exact'),
            `${exact} is routed`,
          );
        assert.ok(
          rule.http.paths.some((p: Any) => p.path === '/app' && p.pathType === 'Prefix'),
          'the web application is routed',
        );
        for (const path of rule.http.paths) {
          assert.equal(path.backend.service.name, 'gateway');
          const port = path.backend.service.port;
          const servicePort = named('Service', 'gateway').spec.ports.find(
            (p: Any) => p.name === port.name || p.port === port.number,
          );
          assert.ok(servicePort !== undefined, 'Ingress port exists on the gateway Service');
        }
      }
      if (base.protocol === 'https:') {
        assert.ok(
          ingress.spec.tls?.some((t: Any) => t.hosts.includes(base.hostname) && t.secretName),
          'TLS',
        );
      }
    });

    it('points service-to-service URLs at Services that exist, on their ports', () => {
      for (const [name, data] of configMaps) {
        for (const [key, value] of Object.entries(data)) {
          if (!key.endsWith('_URL') || !URL.canParse(value)) continue;
          const url = new URL(value);
          const service = named('Service', url.hostname);
          if (url.hostname.includes('.') || !configs.some((c) => c.service === url.hostname)) continue;
          assert.ok(service !== undefined, `${name}.${key}: no Service ${url.hostname}`);
          assert.ok(
            service.spec.ports.some((p: Any) => p.port === Number(url.port)),
            `${name}.${key}: port`,
          );
        }
      }
    });

    describe('network policies', () => {
      let policies: NetworkPolicySpec[];
      let namespaceLabels: Record<string, string>;
      const pod = (name: string): Endpoint => {
        const workload = workloads.find(
          (w) => w.object.spec.template.metadata.labels['app.kubernetes.io/name'] === name,
        );
        assert.ok(workload !== undefined, name);
        return {
          kind: 'pod',
          labels: workload.object.spec.template.metadata.labels,
          ports: Object.fromEntries(
            workload.containers.flatMap((c) => (c.ports ?? []).map((p: Any) => [p.name, p.containerPort])),
          ),
        };
      };
      const port = (name: string) => Number(configs.find((c) => c.service === name)!.defaults.PORT);
      const namespace = (name: string, labels: Record<string, string> = {}): Endpoint => ({
        kind: 'foreign-pod',
        namespaceLabels: { 'kubernetes.io/metadata.name': name },
        labels,
      });
      const internet: Endpoint = { kind: 'external', ip: '203.0.113.10' };
      const may = (from: Endpoint, to: Endpoint, p: number, protocol = 'TCP') =>
        allowed(policies, namespaceLabels, from, to, p, protocol);

      before(() => {
        policies = all('NetworkPolicy').map((p) => p.spec);
        namespaceLabels = { 'kubernetes.io/metadata.name': all('Namespace')[0].metadata.name };
      });

      it('denies everything not allowed below (default deny, both directions)', () => {
        assert.ok(
          policies.some(
            (p) =>
              Object.keys(p.podSelector).length === 0 &&
              p.policyTypes?.includes('Ingress') &&
              p.policyTypes.includes('Egress') &&
              p.ingress === undefined &&
              p.egress === undefined,
          ),
        );
      });

      it('lets the ingress controller reach the gateway, and nothing else', () => {
        const controller = namespace('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
        assert.ok(may(controller, pod('gateway'), port('gateway')));
        for (const service of ['auth', 'requests', 'notifier'])
          assert.ok(!may(controller, pod(service), port(service)), service);
        assert.ok(!may(namespace('default'), pod('gateway'), port('gateway')), 'any other namespace');
        assert.ok(!may(internet, pod('gateway'), port('gateway')), 'straight from outside');
      });

      it('lets the gateway reach auth, requests and the notifier (webhook API), and no service reach another otherwise', () => {
        assert.ok(may(pod('gateway'), pod('auth'), port('auth')));
        assert.ok(may(pod('gateway'), pod('requests'), port('requests')));
        assert.ok(may(pod('gateway'), pod('notifier'), port('notifier')));
        for (const from of ['auth', 'requests', 'notifier', 'migrate']) {
          for (const to of ['gateway', 'auth', 'requests', 'notifier']) {
            if (from !== to) assert.ok(!may(pod(from), pod(to), port(to)), `${from} → ${to}`);
          }
        }
      });

      it('lets every pod resolve names (kube-dns), and only the data owners reach Postgres and RabbitMQ', () => {
        const dns = namespace('kube-system', { 'k8s-app': 'kube-dns' });
        for (const name of ['gateway', 'auth', 'requests', 'notifier', 'migrate']) {
          assert.ok(may(pod(name), dns, 53, 'UDP') && may(pod(name), dns, 53, 'TCP'), `${name}: DNS`);
        }
        for (const name of ['auth', 'requests', 'notifier', 'migrate']) {
          assert.ok(may(pod(name), internet, 5432) && may(pod(name), internet, 5672), `${name}: data stores`);
        }
        assert.ok(
          !may(pod('gateway'), internet, 5432) && !may(pod('gateway'), internet, 5672),
          'gateway: data stores',
        );
      });

      it('lets the notifier, and only the notifier, out to SMTP and Twilio (HTTPS)', () => {
        for (const p of [25, 465, 587, 443]) assert.ok(may(pod('notifier'), internet, p), `notifier: ${p}`);
        for (const name of ['gateway', 'auth', 'requests', 'migrate']) {
          assert.ok(!may(pod(name), internet, 443) && !may(pod(name), internet, 587), `${name}: internet`);
        }
      });

      it("LOW 9: keeps the notifier's delivery ports off private, link-local and cluster addresses", () => {
        const at = (ip: string): Endpoint => ({ kind: 'external', ip });
        for (const ip of [
          '10.96.0.1', // a typical service CIDR
          '10.244.1.7', // a typical pod CIDR
          '172.16.0.5',
          '192.168.1.1',
          '100.64.0.1',
          '127.0.0.1',
          '169.254.169.254', // cloud metadata
          'fd00::1',
          'fe80::1',
          '::1',
          '::ffff:10.0.0.1',
        ]) {
          for (const p of [443, 587]) assert.ok(!may(pod('notifier'), at(ip), p), `notifier → ${ip}:${p}`);
        }
        for (const ip of ['203.0.113.10', '2606:4700::1111'])
          assert.ok(may(pod('notifier'), at(ip), 443), `notifier → ${ip}:443`);
        // Nor may it reach another pod of the cluster on them.
        assert.ok(!may(pod('notifier'), pod('requests'), 443));
      });

      it("lets Prometheus (namespace monitoring) scrape each service's port", () => {
        const prometheus = namespace('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
        for (const { service } of configs) assert.ok(may(prometheus, pod(service), port(service)), service);
      });

      it("L12: lets Prometheus, and not the ingress controller, reach the gateway's operations port", () => {
        const opsPort = Number(
          [...(deploymentOf('gateway').spec.template.spec.containers[0].envFrom ?? [])]
            .map((source: Any) => configMaps.get(source.configMapRef?.name)?.OPS_PORT)
            .find((p) => p !== undefined),
        );
        assert.ok(opsPort > 0);
        const prometheus = namespace('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
        assert.ok(may(prometheus, pod('gateway'), opsPort));
        const ingress = namespace('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
        assert.ok(may(ingress, pod('gateway'), port('gateway')), 'the public port stays reachable');
        assert.ok(!may(ingress, pod('gateway'), opsPort));
      });
    });
  });
}
