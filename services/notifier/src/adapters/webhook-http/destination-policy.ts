import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import ipaddr from 'ipaddr.js';
import type { DestinationGuard, DestinationProblem } from '../../ports/destination-guard.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Host name → every address it resolves to. Tests inject their own; production asks the OS (`dns.lookup`). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const RANGE_NAMES: Record<string, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  uniqueLocal: 'an IPv6 unique local address',
  deprecatedSiteLocal: 'an IPv6 site-local address',
  reserved: 'a reserved address',
};

/**
 * Why an address may not be sent to, or undefined when it is a global unicast address.
 * Anything ipaddr.js does not class as `unicast` is refused: private, loopback,
 * link-local, CGNAT, multicast, unspecified, reserved and documentation ranges, IPv6 ULA,
 * and the IPv6 forms that embed an IPv4 address (IPv4-mapped is unwrapped and judged as
 * IPv4; NAT64, 6to4 and Teredo are refused outright, as they may reach anything), and
 * any IPv6 address outside 2000::/3 or inside the IPv4-compatible ::/96.
 */
export const forbiddenAddress = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const processed = ipaddr.process(address);
  const range = processed.range();
  if (range !== 'unicast') return RANGE_NAMES[range] ?? `an address of the ${range} range`;
  if (processed.kind() === 'ipv6') {
    // ipaddr.js calls any IPv6 address outside its named ranges "unicast". Only global
    // unicast is public: ::/96 holds the deprecated IPv4-compatible forms (::7f00:1 is
    // 127.0.0.1 to some stacks) and the rest of the space is unallocated (issue #18, LOW 9).
    if (processed.match(IPV4_COMPATIBLE)) return 'an IPv4-compatible IPv6 address';
    if (!processed.match(GLOBAL_UNICAST)) return 'outside IPv6 global unicast (2000::/3)';
  }
  return undefined;
};

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

export interface DestinationPolicyOptions {
  /** Accept plain http (local development only). */
  readonly allowHttp: boolean;
  /** Accept private, loopback and other non-public addresses (local development and tests only). */
  readonly allowPrivateAddresses: boolean;
  readonly resolve: Resolver;
}

export interface DestinationPolicy extends DestinationGuard {
  /**
   * The one address a delivery to `url` may connect to, checked now: the sender
   * connects to exactly this address, so a DNS answer that changes between the check
   * and the connection (rebinding) cannot redirect it.
   */
  readonly resolveTarget: (url: string) => Promise<E.Either<DestinationProblem, ResolvedAddress>>;
}

const refused = (reason: string): E.Either<DestinationProblem, never> =>
  E.left({ _tag: 'DestinationRefused', reason });

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export const destinationPolicy = (options: DestinationPolicyOptions): DestinationPolicy => {
  const judge = (address: string): string | undefined =>
    options.allowPrivateAddresses
      ? ipaddr.isValid(address)
        ? undefined
        : 'not an IP address'
      : forbiddenAddress(address);

  const resolveTarget = async (raw: string): Promise<E.Either<DestinationProblem, ResolvedAddress>> => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refused('is not an absolute URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp))
      return refused(options.allowHttp ? 'must use https or http' : 'must use https');
    if (url.username !== '' || url.password !== '') return refused('must not carry credentials');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) {
      const why = judge(host);
      return why === undefined
        ? E.right({ address: host, family: isIP(host) === 6 ? 6 : 4 })
        : refused(`is ${why}`);
    }
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && NOT_FOUND.has(code)) return refused(`host ${host} does not resolve`);
      return E.left({
        _tag: 'DestinationUnverifiable',
        reason: `could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    if (addresses.length === 0) return refused(`host ${host} does not resolve`);
    // Every answer must pass, not just the one we would pick: a name that also points
    // inside the network is refused as a whole.
    for (const { address } of addresses) {
      const why = judge(address);
      if (why !== undefined) return refused(`host ${host} resolves to ${address}, ${why}`);
    }
    return E.right(addresses[0]!);
  };

  return {
    resolveTarget,
    check: (url) => TE.map(() => undefined)(() => resolveTarget(url)),
  };
};
