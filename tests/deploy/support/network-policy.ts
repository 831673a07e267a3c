// Enough of NetworkPolicy semantics to ask "may A open a connection to B on port P?"
// for the policies of one namespace: label selectors, namespace selectors, ipBlocks,
// named and numbered ports, and the rule that a pod selected by no policy of a
// direction is open in that direction.
import { BlockList, isIPv4 } from 'node:net';

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: {
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
    values?: string[];
  }[];
}
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: PolicyPort[];
}
export interface NetworkPolicySpec {
  podSelector: LabelSelector;
  policyTypes?: ('Ingress' | 'Egress')[];
  ingress?: Rule[];
  egress?: Rule[];
}

/** A pod in the policies' namespace, another namespace, or an address outside the cluster. */
export type Endpoint =
  | { kind: 'pod'; labels: Record<string, string>; ports?: Record<string, number> }
  | { kind: 'foreign-pod'; namespaceLabels: Record<string, string>; labels: Record<string, string> }
  | { kind: 'external'; ip: string };

export const matches = (selector: LabelSelector | undefined, labels: Record<string, string>): boolean => {
  if (selector === undefined) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {}))
    if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = key in labels;
    const ok =
      operator === 'In'
        ? has && values.includes(labels[key]!)
        : operator === 'NotIn'
          ? !has || !values.includes(labels[key]!)
          : operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
};

const peerMatches = (peer: Peer, endpoint: Endpoint, ownNamespace: Record<string, string>): boolean => {
  if (peer.ipBlock !== undefined) {
    if (endpoint.kind !== 'external') return false;
    // A block of the other family never matches.
    const family = isIPv4(endpoint.ip) ? 'ipv4' : 'ipv6';
    const familyOf = (cidr: string) => (cidr.includes(':') ? 'ipv6' : 'ipv4');
    if (familyOf(peer.ipBlock.cidr) !== family) return false;
    const [network = '', prefix = family === 'ipv4' ? '32' : '128'] = peer.ipBlock.cidr.split('/');
    const block = new BlockList();
    block.addSubnet(network, Number(prefix), family);
    const except = new BlockList();
    for (const cidr of peer.ipBlock.except ?? []) {
      if (familyOf(cidr) !== family) continue;
      const [n = '', p = family === 'ipv4' ? '32' : '128'] = cidr.split('/');
      except.addSubnet(n, Number(p), family);
    }
    return block.check(endpoint.ip, family) && !except.check(endpoint.ip, family);
  }
  if (endpoint.kind === 'external') return false;
  if (peer.namespaceSelector === undefined) {
    return endpoint.kind === 'pod' && matches(peer.podSelector, endpoint.labels);
  }
  // A namespaceSelector (alone or with a podSelector) picks pods of the namespaces it selects.
  const namespaceLabels = endpoint.kind === 'pod' ? ownNamespace : endpoint.namespaceLabels;
  return matches(peer.namespaceSelector, namespaceLabels) && matches(peer.podSelector, endpoint.labels);
};

const portMatches = (ports: PolicyPort[] | undefined, port: number, protocol: string, target: Endpoint) => {
  if (ports === undefined || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    const number =
      typeof p.port === 'number' ? p.port : target.kind === 'pod' ? target.ports?.[p.port] : undefined;
    return number !== undefined && port >= number && port <= (p.endPort ?? number);
  });
};

const types = (policy: NetworkPolicySpec): string[] =>
  policy.policyTypes ?? (policy.egress !== undefined ? ['Ingress', 'Egress'] : ['Ingress']);

const allowedOneWay = (
  policies: readonly NetworkPolicySpec[],
  ownNamespace: Record<string, string>,
  direction: 'Ingress' | 'Egress',
  subject: Endpoint & { kind: 'pod' },
  peer: Endpoint,
  port: number,
  protocol: string,
  portOwner: Endpoint,
): boolean => {
  const selecting = policies.filter(
    (p) => types(p).includes(direction) && matches(p.podSelector, subject.labels),
  );
  if (selecting.length === 0) return true;
  return selecting.some((policy) =>
    (direction === 'Ingress' ? policy.ingress : policy.egress)?.some((rule) => {
      const peers = direction === 'Ingress' ? rule.from : rule.to;
      return (
        (peers === undefined || peers.some((p) => peerMatches(p, peer, ownNamespace))) &&
        portMatches(rule.ports, port, protocol, portOwner)
      );
    }),
  );
};

/** Whether `from` may connect to `to` on `port`, under the policies of the namespace labelled `ownNamespace`. */
export const allowed = (
  policies: readonly NetworkPolicySpec[],
  ownNamespace: Record<string, string>,
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol = 'TCP',
): boolean => {
  const egress =
    from.kind !== 'pod' || allowedOneWay(policies, ownNamespace, 'Egress', from, to, port, protocol, to);
  const ingress =
    to.kind !== 'pod' || allowedOneWay(policies, ownNamespace, 'Ingress', to, from, port, protocol, to);
  return egress && ingress;
};
