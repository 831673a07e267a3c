import { AsyncResource } from 'node:async_hooks';
import { Writable } from 'node:stream';
import amqplib, { type Channel, type ChannelModel, type RecoveringChannelModel } from 'amqplib';
import type { Logger } from './logger.js';
import { batchTurnWrites } from './turn-writes.js';

export type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';

/** Names of the shared messaging topology; `prefix` lets tests run side by side on one broker. */
export const topologyNames = (prefix: string) => ({
  /** Topic exchange of domain events; routing key = event type. */
  events: `${prefix}.events`,
  /** Where queues dead-letter what they reject. */
  deadLetter: `${prefix}.dlx`,
});

/**
 * The second routing key of every event the outbox publishes (as BCC, so consumers never
 * see it): `site.<site_id>.<type>`. A queue that wants one Site's events of a type binds
 * it, and events of Sites it does not bind never reach it (ADR 2690).
 */
export const siteRoutingKey = (siteId: number | string, type: string): string => `site.${siteId}.${type}`;

/** Declares the exchanges every service relies on. Idempotent. */
export const declareSharedTopology = async (channel: Channel, prefix: string): Promise<void> => {
  const names = topologyNames(prefix);
  await channel.assertExchange(names.events, 'topic', { durable: true });
  await channel.assertExchange(names.deadLetter, 'topic', { durable: true });
};

/**
 * Runs `work` in the async context this module was loaded in: outside any caller's
 * AsyncLocalStorage, where slonik keeps the transaction in progress. A broker write that
 * fails inside a database transaction (the outbox relay publishes in one) closes the
 * connection in that transaction's context; the reconnect it schedules, and every socket
 * callback after it, consumers' deliveries included, would inherit that context, and slonik
 * refuses every query there as "a foreign connection". Broker calls made inside a
 * transaction, and deliveries, go through this.
 */
export const outsideCallerContext: <A>(work: () => A) => A = AsyncResource.bind(<A>(work: () => A): A =>
  work(),
);

/**
 * The socket of an amqplib connection: `connection.stream`, which amqplib does not type or
 * document (checked by `test/integration/amqp-writes.test.ts` for the version the lock file
 * pins). Undefined if a later amqplib keeps it elsewhere.
 */
export const amqpSocketOf = (model: ChannelModel): Writable | undefined => {
  const stream = (model.connection as { readonly stream?: unknown }).stream;
  return stream instanceof Writable ? stream : undefined;
};

/** A connection's writes of one turn leave in one `writev` (ADR 2780). */
const batchConnectionWrites = (model: ChannelModel, logger: Logger): void => {
  const socket = amqpSocketOf(model);
  if (socket === undefined) logger.warn('amqp socket not found: its writes are not batched');
  else batchTurnWrites(socket);
};

export interface AmqpClient {
  readonly model: RecoveringChannelModel;
  isConnected(): boolean;
  close(): Promise<void>;
}

/**
 * A broker connection that recovers by itself with back-off. `setup` runs after every
 * (re)connect: declare topology and start consumers there, since channels die with
 * their connection. Each connection's writes of one turn leave in one `writev`
 * (ADR 2780).
 */
export const connectAmqp = async (
  url: string,
  logger: Logger,
  setup: (model: ChannelModel) => Promise<void>,
): Promise<AmqpClient> => {
  let connected = false;
  let closing = false;
  const model = await amqplib.connect(url, {
    clientProperties: { connection_name: logger.bindings().service as string },
    // amqplib leaves Nagle's algorithm on: a small frame (a publish, an ack) written while
    // an earlier one is unacknowledged waits for the broker's delayed ACK, up to 40 ms on
    // Linux, which put tens of ms on every hop at 30 sends/s and more (ADR 2670).
    noDelay: true,
    recovery: {
      initialDelay: 100,
      maxDelay: 5_000,
      maxRetries: Infinity,
      waitForConnect: false,
      setup: (m: ChannelModel) =>
        outsideCallerContext(async () => {
          // amqplib listens for a connection's errors only once its setup has finished:
          // one lost in the middle (a broker restarting) would throw its error unheard and
          // leave the setup waiting for good. Heard here until then; the setup then fails
          // and the recovery connects again, as after any failed setup.
          const heard = (error: Error) => logger.warn({ err: error.message }, 'amqp error during setup');
          m.on('error', heard);
          try {
            batchConnectionWrites(m, logger);
            await setup(m);
          } finally {
            m.removeListener('error', heard);
          }
        }),
    },
  });
  model.on('connect', () => {
    connected = true;
    logger.info('amqp connected');
  });
  model.on('disconnect', (error: Error) => {
    connected = false;
    if (!closing) logger.warn({ err: error.message }, 'amqp disconnected; reconnecting');
  });
  model.on('connect-failed', (error: Error) => logger.warn({ err: error.message }, 'amqp connect failed'));
  model.on('error', (error: Error) => logger.warn({ err: error.message }, 'amqp error'));
  return {
    model,
    isConnected: () => connected,
    close: async () => {
      closing = true;
      try {
        await model.close();
      } catch (error) {
        logger.debug({ err: error }, 'amqp close');
      }
    },
  };
};

/** `/readyz` check of a broker connection. */
export const amqpReadiness = (client: AmqpClient) => ({
  name: 'rabbitmq',
  check: () => (client.isConnected() ? Promise.resolve() : Promise.reject(new Error('not connected'))),
});
