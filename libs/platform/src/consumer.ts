/**
 * Event consumers with manual acks, bounded prefetch, retries with back-off through
 * TTL retry queues, and a parking queue for what cannot be processed.
 *
 * Topology for consumer `name` under `prefix` (declared here, after every reconnect):
 * - `<prefix>.<name>`: durable queue bound to the events exchange by `routingKeys`; it
 *   dead-letters rejected messages to `<prefix>.dlx` with routing key `<name>`.
 * - `<prefix>.<name>.retry.<n>`: one durable queue per back-off step; messages wait
 *   there for the step's TTL, then dead-letter back into the main queue.
 * - `<prefix>.<name>.parked`: bound to `<prefix>.dlx`; undecodable messages, permanent
 *   failures and exhausted retries rest there for an operator, never lost, never looping.
 *
 * A message is acked only after `handle` resolves, i.e. after the handler's own
 * transaction has committed; a retry is acked only once the broker confirmed the copy
 * in the retry queue. Handlers must be idempotent by event id (`claimEvent`), since a
 * crash between commit and ack redelivers.
 */
import type * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { formatErrors, renderErrors } from '@esign/contracts';
import { sql, type Queryable } from './db.js';
import { outsideCallerContext, topologyNames } from './amqp.js';
import type { Logger } from './logger.js';
import { withTimeout } from './timeout.js';

/** Throw from a handler when retrying cannot help (e.g. an invalid address). */
export class PermanentFailure extends Error {
  override readonly name = 'PermanentFailure';
}

export interface DeliveryInfo {
  /** 1 for the first delivery, then one more per retry. */
  readonly attempt: number;
  readonly redelivered: boolean;
}

export interface EventConsumerOptions<A> {
  readonly prefix: string;
  readonly name: string;
  readonly routingKeys: readonly string[];
  /**
   * Bindings an earlier version of this consumer made and this one no longer wants:
   * removed at setup, after the current ones are in place, so a broker that ran the
   * earlier version stops routing those events here.
   */
  readonly formerRoutingKeys?: readonly string[];
  /**
   * Bindings kept somewhere else (a table), read at every setup so a broker that lost
   * them, or a queue declared anew, gets them back; `bind` adds to them while running.
   */
  readonly storedRoutingKeys?: () => Promise<readonly string[]>;
  readonly codec: t.Decoder<unknown, A>;
  readonly handle: (event: A, info: DeliveryInfo) => Promise<void>;
  readonly logger: Logger;
  readonly prefetch?: number;
  /** Back-off steps; after the last one a failing message is parked. */
  readonly retryDelaysMs?: readonly number[];
  /** How long `bind` waits for the broker (`BIND_TIMEOUT_MS`). */
  readonly bindTimeoutMs?: number;
}

export interface EventConsumer {
  /** Declares the topology and starts consuming; pass it to `connectAmqp`'s setup. */
  setup(model: ChannelModel): Promise<void>;
  /**
   * Binds the queue by more routing keys now, waiting for a set-up under way (a start or a
   * reconnect); rejects when the queue is not bound within `BIND_TIMEOUT_MS`. Bindings
   * outlive the channel.
   */
  bind(routingKeys: readonly string[]): Promise<void>;
  /** Stops taking messages and waits for those in hand. */
  stop(): Promise<void>;
}

/** How long `bind` waits for the broker. */
export const BIND_TIMEOUT_MS = 5_000;

export const consumerQueues = (prefix: string, name: string, steps: number) => ({
  main: `${prefix}.${name}`,
  parked: `${prefix}.${name}.parked`,
  retries: Array.from({ length: steps }, (_, i) => `${prefix}.${name}.retry.${i + 1}`),
});

const ATTEMPT_HEADER = 'x-esign-attempt';

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const;

/** A promise and the function that fulfils it (`Promise.withResolvers` is Node 22's). */
const awaited = <T>() => {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

export const createEventConsumer = <A>(options: EventConsumerOptions<A>): EventConsumer => {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const names = topologyNames(options.prefix);
  const queues = consumerQueues(options.prefix, options.name, delays.length);
  const log = options.logger.child({ consumer: options.name });
  let channel: ConfirmChannel | undefined;
  // The channel of the last set-up that finished, for `bind`; a new promise while none is open.
  let opened = awaited<ConfirmChannel>();
  let consumerTag: string | undefined;
  let stopping = false;
  const inHand = new Set<Promise<void>>();

  /** Acks and nacks on a channel that died meanwhile throw; the broker redelivers, nothing is lost. */
  const settle = (action: () => void, meta: object) => {
    try {
      action();
    } catch (error) {
      log.info(
        { ...meta, err: String(error) },
        'channel closed before the message was settled; it will be redelivered',
      );
    }
  };
  const park = (ch: ConfirmChannel, message: ConsumeMessage) =>
    settle(() => ch.nack(message, false, false), { message_id: message.properties.messageId as unknown });

  const handleMessage = async (ch: ConfirmChannel, message: ConsumeMessage): Promise<void> => {
    const headers = message.properties.headers ?? {};
    const attempt = typeof headers[ATTEMPT_HEADER] === 'number' ? headers[ATTEMPT_HEADER] : 1;
    const meta = {
      message_id: message.properties.messageId as unknown,
      routing_key: message.fields.routingKey,
      attempt,
    };
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.content.toString('utf8'));
    } catch {
      log.error(meta, 'parked a message that is not JSON');
      return park(ch, message);
    }
    const decoded = options.codec.decode(parsed);
    if (E.isLeft(decoded)) {
      log.error(
        { ...meta, errors: renderErrors(formatErrors(decoded.left)) },
        'parked a message that does not decode',
      );
      return park(ch, message);
    }
    let failure: unknown;
    try {
      await options.handle(decoded.right, { attempt, redelivered: message.fields.redelivered });
    } catch (error) {
      failure = error ?? new Error('handler failed');
    }
    if (failure === undefined) return settle(() => ch.ack(message), meta);
    const reason = failure instanceof Error ? failure.message : JSON.stringify(failure);
    if (failure instanceof PermanentFailure || attempt > delays.length) {
      log.error({ ...meta, err: reason }, 'parked a message that failed for good');
      return park(ch, message);
    }
    log.warn({ ...meta, err: reason, retry_in_ms: delays[attempt - 1] }, 'handler failed; will retry');
    try {
      ch.sendToQueue(queues.retries[attempt - 1]!, message.content, {
        ...message.properties,
        headers: { ...headers, [ATTEMPT_HEADER]: attempt + 1 },
        persistent: true,
      });
      await ch.waitForConfirms();
    } catch (confirmError) {
      // Not acked: the broker redelivers it when the channel closes. Nothing is lost.
      log.warn(
        { ...meta, err: String(confirmError) },
        'retry copy not confirmed; leaving the message unacked',
      );
      return;
    }
    settle(() => ch.ack(message), meta);
  };

  return {
    setup: async (model) => {
      if (stopping) return;
      const ch = await model.createConfirmChannel();
      ch.on('error', (error: Error) => log.warn({ err: error.message }, 'consumer channel error'));
      await ch.assertExchange(names.events, 'topic', { durable: true });
      await ch.assertExchange(names.deadLetter, 'topic', { durable: true });
      await ch.assertQueue(queues.parked, { durable: true });
      await ch.bindQueue(queues.parked, names.deadLetter, options.name);
      await ch.assertQueue(queues.main, {
        durable: true,
        arguments: { 'x-dead-letter-exchange': names.deadLetter, 'x-dead-letter-routing-key': options.name },
      });
      for (const key of options.routingKeys) await ch.bindQueue(queues.main, names.events, key);
      for (const key of (await options.storedRoutingKeys?.()) ?? [])
        await ch.bindQueue(queues.main, names.events, key);
      for (const key of options.formerRoutingKeys ?? [])
        if (!options.routingKeys.includes(key)) await ch.unbindQueue(queues.main, names.events, key);
      for (const [i, queue] of queues.retries.entries()) {
        await ch.assertQueue(queue, {
          durable: true,
          arguments: {
            'x-message-ttl': delays[i],
            'x-dead-letter-exchange': '',
            'x-dead-letter-routing-key': queues.main,
          },
        });
      }
      await ch.prefetch(options.prefetch ?? 16);
      channel = ch;
      opened.resolve(ch);
      ch.on('close', () => {
        if (channel === ch) opened = awaited<ConfirmChannel>();
      });
      const { consumerTag: tag } = await ch.consume(
        queues.main,
        (message) => {
          if (message === null) return; // cancelled by the broker; setup runs again on reconnect
          const work = outsideCallerContext(() => handleMessage(ch, message)).catch((error: unknown) =>
            log.error({ err: error }, 'consumer failure'),
          );
          inHand.add(work);
          void work.finally(() => inHand.delete(work));
        },
        { noAck: false },
      );
      consumerTag = tag;
    },
    bind: async (routingKeys) => {
      const timeoutMs = options.bindTimeoutMs ?? BIND_TIMEOUT_MS;
      await withTimeout(
        opened.promise.then((ch) =>
          Promise.all(routingKeys.map((key) => ch.bindQueue(queues.main, names.events, key))),
        ),
        timeoutMs,
        `not connected to the broker: the queue was not bound within ${timeoutMs} ms`,
      );
    },
    stop: async () => {
      stopping = true;
      if (channel !== undefined && consumerTag !== undefined)
        await channel.cancel(consumerTag).catch(() => undefined);
      await Promise.all([...inHand]);
      await channel?.close().catch(() => undefined);
    },
  };
};

/**
 * The statement that records that `consumer` processed `eventId`, returning a row only
 * when it had not: for a caller that makes the claim part of a larger statement (a
 * data-modifying CTE), so the claim and the work it guards are one round trip.
 */
export const claimEventStatement = (consumer: string, eventId: string) => sql.fragment`
  INSERT INTO inbox (consumer, event_id) VALUES (${consumer}, ${eventId}) ON CONFLICT DO NOTHING
  RETURNING event_id`;

/**
 * Records that `consumer` processed `eventId`, in the handler's transaction. Answers
 * false when it already had: the handler then does nothing (and the message is acked).
 */
export const claimEvent = async (tx: Queryable, consumer: string, eventId: string): Promise<boolean> => {
  const result = await tx.query(sql.unsafe`${claimEventStatement(consumer, eventId)}`);
  return result.rowCount === 1;
};
