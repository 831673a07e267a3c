import assert from 'node:assert/strict';
import amqplib from 'amqplib';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { DomainEvent, type RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import {
  connectAmqp,
  consumerQueues,
  declareSharedTopology,
  startOutboxRelay,
  topologyNames,
  type AmqpClient,
  type EventConsumer,
  type OutboxRelay,
} from '@esign/platform/messaging';
import {
  amqpPrefix,
  deleteAmqpObjects,
  eventually,
  infra,
  startTcpProxy,
  testLogger,
  type TcpProxy,
} from '@esign/testing';
import { notificationOutcomesConsumer } from '../../src/adapters/amqp/notification-outcomes-consumer.js';
import { NOTIFICATION_OUTCOMES_CONSUMER } from '../../src/application/delivery-outcomes.js';
import { useCases } from '../../src/application/use-cases.js';
import { openExecutionLink } from './execution-link.js';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from './harness.js';

/** A queue on the test's exchange that keeps every request.* and notice.* event the relay publishes. */
const collector = async (exchange: string, queue: string) => {
  const connection = await amqplib.connect(infra().amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: false, autoDelete: true });
  await channel.bindQueue(queue, exchange, 'request.*');
  await channel.bindQueue(queue, exchange, 'notice.*');
  const received: DomainEvent[] = [];
  const receivedAt = new Map<string, number>();
  await channel.consume(queue, (m) => {
    if (m === null) return;
    const decoded = DomainEvent.decode(JSON.parse(m.content.toString()));
    assert.ok(E.isRight(decoded), 'every published event decodes with the libs/contracts codec');
    assert.equal(m.fields.routingKey, decoded.right.type, 'routing key = event type');
    received.push(decoded.right);
    receivedAt.set(`${decoded.right.type}/${decoded.right.aggregate_id}`, performance.now());
    channel.ack(m);
  });
  return {
    received,
    receivedAt,
    of: (type: string, requestId: string) =>
      received.filter((e) => e.type === type && e.aggregate_id === requestId),
    close: () => connection.close(),
  };
};

/** What the lifecycle tests run against, filled in by the fixture's `before`. */
export interface LifecycleContext {
  h: Harness;
  /** The relay reaches the broker through it, so a test can cut the broker off. */
  proxy: TcpProxy;
  /** The relay's broker connection, through the proxy. */
  amqp: AmqpClient;
  relay: OutboxRelay;
  sink: Awaited<ReturnType<typeof collector>>;
  template: number;
  headers: Record<string, string>;
  /** The test's own exchanges. */
  names: ReturnType<typeof topologyNames>;
}

/**
 * The requests service's use cases over HTTP with real Postgres and RabbitMQ: sends hand
 * their events to an outbox relay at commit, as in the service (ADR 2660), a sink keeps
 * what the relay publishes, and the consumer of the notifier's outcomes runs. Registers
 * its `before` and `after` hooks in the calling `describe`.
 */
export const lifecycleFixture = (label: string) => {
  const ctx = {} as LifecycleContext;
  const prefix = amqpPrefix(label);
  ctx.names = topologyNames(prefix);
  let outcomes: EventConsumer;
  let outcomesClient: AmqpClient;

  before(async () => {
    ctx.h = await startHarness(label, {
      handoff: { publishCommitted: (events) => ctx.relay?.publishCommitted(events) },
    });
    ctx.template = await publishedTemplate(ctx.h.http);
    ctx.headers = await principal();
    ctx.proxy = await startTcpProxy(Number(new URL(infra().amqpUrl).port || 5672));
    const viaProxy = new URL(infra().amqpUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(ctx.proxy.port);
    ctx.amqp = await connectAmqp(viaProxy.toString(), testLogger(), async (model) => {
      const ch = await model.createChannel();
      await declareSharedTopology(ch, prefix);
      await ch.close();
    });
    await eventually(() => Promise.resolve(ctx.amqp.isConnected() ? true : undefined));
    ctx.sink = await collector(ctx.names.events, `${prefix}.sink`);
    ctx.relay = startOutboxRelay({
      pool: ctx.h.pool,
      databaseUrl: ctx.h.database.url,
      amqp: ctx.amqp,
      exchange: ctx.names.events,
      logger: testLogger(),
    });
    outcomes = notificationOutcomesConsumer({
      prefix,
      logger: testLogger(),
      record: useCases(ctx.h.deps).recordNotificationOutcome,
      retryDelaysMs: [100],
    });
    outcomesClient = await connectAmqp(infra().amqpUrl, testLogger(), (model) => outcomes.setup(model));
  });

  after(async () => {
    await outcomes.stop();
    await outcomesClient.close();
    await ctx.relay.stop();
    await ctx.amqp.close();
    await ctx.sink.close();
    await ctx.proxy.close();
    await ctx.h.close();
    const queues = consumerQueues(prefix, NOTIFICATION_OUTCOMES_CONSUMER, 1);
    await deleteAmqpObjects({
      queues: [queues.main, queues.parked, ...queues.retries],
      exchanges: [ctx.names.events, ctx.names.deadLetter],
    });
  });

  /** A draft with three signers (e-mail; mobile and e-mail; neither) and three fields, made by `as`. */
  const create = async (body: Record<string, unknown> = {}, as = ctx.headers): Promise<RequestView> =>
    (
      await ctx.h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(as)
        .send({
          contracts: [ctx.template],
          signers: [
            { signer_id: 'alice@example.com', send_to: { email: true } },
            {
              signer_id: 'bob',
              signer: { mobile_number: '5552001111' },
              send_to: { mobile_number: true, email: true },
            },
            { signer_id: 'carol' },
          ],
          fields: [
            { name: 'full_name', assigned_to: 'alice@example.com' },
            { name: 'agree', assigned_to: 'bob' },
            { name: 'signature', assigned_to: 'carol' },
          ],
          ...body,
        })
        .expect(201)
    ).body as RequestView;

  const post = (id: string, action: string) =>
    ctx.h.http.post(`/v1.1/requests/${id}/${action}`).set(ctx.headers);

  const outboxRows = async (requestId: string) =>
    db.any(
      ctx.h.pool,
      t.type({ type: t.string, published_at: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT type, published_at FROM outbox WHERE envelope->>'aggregate_id' = ${requestId} ORDER BY seq`,
    );

  const openUrl = (view: RequestView, index = 0) =>
    openExecutionLink(ctx.h.deps, view.signers[index]!.request_url);

  return { ctx, create, post, outboxRows, openUrl };
};
