// k8s/: how traffic reaches the services in every overlay: the client's address kept for
// the audit trail, public routes to the gateway alone on the public host, service-to-service
// URLs pointing at Services that exist, and the network policies between them (split from
// k8s.test.ts, which renders and validates the same overlays).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/paths.js';
import { renderOverlay, type Any, type RenderedOverlay } from './support/k8s-overlay.js';
import { allowed, type Endpoint, type NetworkPolicySpec } from './support/network-policy.js';
import { allServiceConfigs, type ServiceConfig } from './support/service-config.js';

/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return --
   The manifests are read as plain data (support/k8s-overlay.ts). */

const overlays = readdirSync(join(repoRoot, 'k8s', 'overlays')).sort();

let configs: ServiceConfig[];
before(async () => {
  configs = await allServiceConfigs();
});

for (const overlay of overlays) {
  describe(`k8s overlay ${overlay}: traffic`, () => {
    let rendered: RenderedOverlay;
    let all: RenderedOverlay['all'];
    let named: RenderedOverlay['named'];
    let configMaps: RenderedOverlay['configMaps'];
    let workloads: RenderedOverlay['workloads'];
    let deploymentOf: RenderedOverlay['deploymentOf'];
    before(() => {
      rendered = renderOverlay(overlay);
      ({ all, named, configMaps, deploymentOf, workloads } = rendered);
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
