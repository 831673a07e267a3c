import type Koa from 'koa';
import type { AmqpClient } from './amqp.js';
import type { EventConsumer } from './consumer.js';
import { createDatabasePool, postgresReadiness, type DatabasePool } from './db.js';
import type { AppState, ReadinessCheck } from './http.js';
import type { ShutdownStep } from './lifecycle.js';
import type { Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { migrate } from './migrate.js';
import type { OutboxRelay } from './outbox.js';
import type { OutboxHandoff } from './outbox-writes.js';

/** What the platform opened for a service, handed to its composition root. */
export interface ServiceInfra {
  readonly pool: DatabasePool;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** A check for every dependency the platform opened (Postgres; RabbitMQ with messaging). */
  readonly readiness: readonly ReadinessCheck[];
  /**
   * With messaging: the outbox relay's hand-off, for writers that publish their events
   * themselves once they committed (ADR 2660). Absent without messaging.
   */
  readonly handoff?: OutboxHandoff;
  /**
   * With messaging: whether the relay's LISTEN connection is up, so that the channels of
   * `ServiceParts.listen` are heard (false until the relay starts, after `build`).
   */
  readonly listening?: () => boolean;
}

/** What a service's composition root builds on them. */
export interface ServiceParts {
  readonly app: Koa<AppState>;
  /** Started with the broker connection (again after each reconnect), stopped first. */
  readonly consumers?: readonly EventConsumer[];
  /** Run after the consumers stop, before the relay and the connections close. */
  readonly steps?: readonly ShutdownStep[];
  /** With messaging: channels heard on the relay's LISTEN connection, with what each wakes (ADR 2910). */
  readonly listen?: Readonly<Record<string, () => void>>;
}

export interface RunningService {
  readonly app: Koa<AppState>;
  /** Shutdown in order: consumers, the service's own steps, outbox relay, RabbitMQ, Postgres. */
  readonly steps: readonly ShutdownStep[];
}

/**
 * The one skeleton of a service with a database: migrate (messaging and own tables),
 * open the pool, let `build` wire the use cases and the HTTP app, then, with messaging,
 * connect to RabbitMQ (declaring the shared exchanges the relay publishes to, then
 * starting the consumers, on every connect) and run the outbox relay. Every dependency it
 * opens is in readiness and in the shutdown steps. `serve` then listens and drains.
 * The broker's modules (amqplib with them) are loaded only with messaging: a service
 * without it, auth, never loads them.
 */
export const startService = async (options: {
  readonly service: string;
  readonly logger: Logger;
  readonly databaseUrl: string;
  readonly migrationsDir: string;
  /**
   * RabbitMQ: consumers start on connect and the outbox relay publishes to `<prefix>.events`.
   * `ready: false` leaves the broker out of readiness: for a service that only publishes,
   * through its outbox, so that its calls never wait on the broker (auth, ADR 3000).
   */
  readonly messaging?: { readonly amqpUrl: string; readonly prefix: string; readonly ready?: boolean };
  readonly build: (infra: ServiceInfra) => Promise<ServiceParts>;
}): Promise<RunningService> => {
  const { logger } = options;
  await migrate(options.databaseUrl, options.migrationsDir, logger);
  const pool = await createDatabasePool(options.databaseUrl);
  // The broker connection is made once the consumers exist; readiness asks it then.
  const broker: { client?: AmqpClient } = {};
  const readiness: ReadinessCheck[] = [postgresReadiness(pool)];
  if (options.messaging !== undefined && options.messaging.ready !== false)
    readiness.push({
      name: 'rabbitmq',
      check: () =>
        broker.client?.isConnected() === true
          ? Promise.resolve()
          : Promise.reject(new Error('not connected')),
    });
  // The relay starts once the consumers exist; nothing writes before `build` returns.
  const relayed: { relay?: OutboxRelay } = {};
  const handoff: OutboxHandoff = { publishCommitted: (events) => relayed.relay?.publishCommitted(events) };
  const parts = await options.build({
    pool,
    logger,
    metrics: createMetrics(options.service),
    readiness,
    ...(options.messaging === undefined
      ? {}
      : { handoff, listening: () => relayed.relay?.listening() ?? false }),
  });
  const consumers = parts.consumers ?? [];
  const tail: ShutdownStep[] = [{ name: 'postgres', run: () => pool.end() }];
  if (options.messaging !== undefined) {
    const { prefix } = options.messaging;
    const [{ connectAmqp, declareSharedTopology, topologyNames }, { startOutboxRelay }] = await Promise.all([
      import('./amqp.js'),
      import('./outbox.js'),
    ]);
    const amqp = await connectAmqp(options.messaging.amqpUrl, logger, async (model) => {
      const channel = await model.createChannel();
      await declareSharedTopology(channel, prefix);
      await channel.close();
      for (const consumer of consumers) await consumer.setup(model);
    });
    broker.client = amqp;
    const relay = startOutboxRelay({
      pool,
      databaseUrl: options.databaseUrl,
      amqp,
      exchange: topologyNames(prefix).events,
      logger,
      ...(parts.listen === undefined ? {} : { listen: parts.listen }),
    });
    relayed.relay = relay;
    tail.unshift(
      { name: 'outbox-relay', run: () => relay.stop() },
      { name: 'amqp', run: () => amqp.close() },
    );
  }
  return {
    app: parts.app,
    steps: [
      ...consumers.map((consumer, i): ShutdownStep => ({
        name: `consumer-${i + 1}`,
        run: () => consumer.stop(),
      })),
      ...(parts.steps ?? []),
      ...tail,
    ],
  };
};
