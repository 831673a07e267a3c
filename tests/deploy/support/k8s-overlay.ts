// One k8s overlay rendered with `kubectl kustomize`, read as plain data by the deploy tests
// (k8s.test.ts, k8s-traffic.test.ts): its objects, its Deployments and Jobs with their pods,
// and its ConfigMaps by name.
import { render, type K8sObject } from './kubernetes.js';

/* eslint-disable @typescript-eslint/no-explicit-any --
   The rendered manifests are validated against the Kubernetes schemas by k8s.test.ts; the
   checks read them as plain data, which keeps each one short. */
export type Any = any;

export interface Workload {
  readonly object: Any;
  readonly pod: Any;
  readonly containers: Any[];
}

export interface RenderedOverlay {
  readonly objects: K8sObject[];
  readonly all: (kind: string) => Any[];
  readonly named: (kind: string, name: string) => Any;
  readonly workloads: Workload[];
  readonly configMaps: Map<string, Record<string, string>>;
  readonly deploymentOf: (service: string) => Any;
}

/** Renders `k8s/overlays/<overlay>`. */
export const renderOverlay = (overlay: string): RenderedOverlay => {
  const objects = render(`k8s/overlays/${overlay}`);
  const all = (kind: string): Any[] => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string): Any =>
    objects.find((o) => o.kind === kind && o.metadata.name === name);
  return {
    objects,
    all,
    named,
    workloads: objects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
      .map((o: Any) => ({
        object: o,
        pod: o.spec.template.spec,
        containers: o.spec.template.spec.containers,
      })),
    configMaps: new Map(all('ConfigMap').map((c) => [c.metadata.name, c.data ?? {}])),
    deploymentOf: (service: string): Any => named('Deployment', service),
  };
};
