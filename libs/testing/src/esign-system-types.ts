// What `startEsignSystem` (esign-system.ts) is given and what it answers.
import type { TestDatabase } from './infra.js';
import type { PrincipalKeys } from './principal-keys.js';
import type { SmtpDouble } from './smtp-server.js';
import type { RunningService, ServiceName } from './system.js';
import type { TcpProxy } from './tcp-proxy.js';
import type { Tenant } from './tenants.js';
import type { TwilioApiDouble } from './twilio-api.js';

/** The services that own a database, in the order `npm start` starts them. */
export const DATA_OWNERS = ['auth', 'requests', 'notifier'] as const;
export type DataOwner = (typeof DATA_OWNERS)[number];

export interface SystemOptions {
  /** Names the databases and the AMQP prefix, for whoever finds leftovers. */
  readonly label: string;
  /**
   * Puts a TCP proxy the test controls between every service and Postgres, and another
   * between the services and RabbitMQ, so a drill can cut them without touching the
   * machine's shared servers.
   */
  readonly proxies?: boolean;
  /** Extra environment per service (wins over the harness's). */
  readonly env?: Partial<Record<ServiceName, Record<string, string>>>;
  /**
   * Applies every data owner's migrations before its processes start, as a deployment's
   * migration step does (the Kubernetes Job, compose's migrate-* services): the services
   * then start on an up-to-date database and never load the migration library (ADR 2730).
   * Without it, the first process of each service migrates at start-up.
   */
  readonly migrateFirst?: boolean;
  /** How long a service may take to answer /healthz (migrations run at start-up). */
  readonly startTimeoutMs?: number;
  /**
   * Processes per service (default 1). With more, each replica listens on a port of its
   * own behind a round-robin TCP proxy, the one address of the service that the other
   * services and the tests use, as a Kubernetes Service would be.
   */
  readonly replicas?: number;
  /** Node options per service, e.g. `--cpu-prof` for a benchmark. */
  readonly nodeArgs?: Partial<Record<ServiceName, readonly string[]>>;
  /**
   * Runs every service from this container image (`docker run` on the host network)
   * instead of the built files, e.g. the image scripts/images.sh builds.
   */
  readonly image?: string;
}

export interface EsignSystem {
  /** The one address a client uses. */
  readonly gatewayUrl: string;
  readonly services: Readonly<Record<ServiceName, RunningService>>;
  readonly smtp: SmtpDouble;
  readonly twilio: TwilioApiDouble;
  readonly databases: Readonly<Record<DataOwner, TestDatabase>>;
  readonly amqpPrefix: string;
  /** Present when started with `proxies: true`. */
  readonly proxies: { readonly postgres: TcpProxy; readonly amqp: TcpProxy } | undefined;
  /** The gateway's principal keys (to call a service directly, as the gateway would). */
  readonly principalKeys: PrincipalKeys;
  /** Runs auth's admin CLI (the built one) against auth's database; answers its JSON. */
  admin(...args: string[]): Promise<Record<string, unknown>>;
  /** An account with one site, one member user, a Developer App and an access token. */
  createTenant(name: string): Promise<Tenant>;
  /**
   * Signs a JWT with auth's current signing key, opened from auth's database the way auth
   * does: lets a test make a token that differs from a real one in one claim only.
   */
  signAsIssuer(claims: Record<string, unknown>): Promise<string>;
  /** Stops a service with `signal` (SIGKILL for a crash) and starts it again on its port. */
  restart(name: ServiceName, signal?: NodeJS.Signals): Promise<RunningService>;
  /** Every replica of a service now running, in replica order. */
  replicasOf(name: ServiceName): readonly RunningService[];
  /**
   * One step of a rolling restart: the replica leaves the rotation, stops with `signal`,
   * starts again on its port and, once healthy, rejoins.
   */
  restartReplica(name: ServiceName, index: number, signal?: NodeJS.Signals): Promise<RunningService>;
  /** Peak resident memory (VmHWM, kB) of each service process that ran, the largest per service. */
  peakRssKb(): Record<ServiceName, number>;
  /** Stops everything and removes databases, queues and exchanges, even after a failure. */
  stop(): Promise<void>;
}
