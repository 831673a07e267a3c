import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import * as t from 'io-ts';
import { NotificationDelivered, NotificationFailed } from '@esign/contracts';
import { createDatabasePool, db, sql, type DatabasePool } from '@esign/platform/database';
import { consumerQueues, topologyNames } from '@esign/platform/messaging';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  eventually,
  infra,
  redisKeyPrefix,
  redisUrl,
  type SmtpDouble,
  startSmtpServer,
  startTcpProxy,
  startTwilioApi,
  type TcpProxy,
  type TestDatabase,
  testLogger,
  type TwilioApiDouble,
  testGatewayKeys,
} from '@esign/testing';
import { parseConfig } from '../../src/config.js';
import { startNotifierService, type RunningNotifier } from '../../src/service.js';
import { CONSUMER_NAME } from '../../src/adapters/amqp/notification-consumer.js';
import { WEBHOOK_CONSUMER_NAME } from '../../src/adapters/amqp/webhook-event-consumer.js';
import { untilQueueDeclared } from './queues.js';

export const RETRY_DELAYS = [50, 100, 200, 400, 800];
const Outcome = t.union([NotificationDelivered, NotificationFailed]);
type Outcome = t.TypeOf<typeof Outcome>;

/** What the notifier tests run against, filled in by the fixture's `before`. */
export interface NotifierContext {
  smtp: SmtpDouble;
  smtpProxy: TcpProxy;
  amqpProxy: TcpProxy;
  twilio: TwilioApiDouble;
  notifier: RunningNotifier;
}

/**
 * The notifier as it runs (config → composition root), against real Postgres and
 * RabbitMQ, a real SMTP server and a local Twilio Messages API. SMTP and RabbitMQ are
 * reached through TCP proxies the tests cut and restore. Registers its `before` and
 * `after` hooks in the calling `describe`.
 */
export const notifierFixture = () => {
  const ctx = {} as NotifierContext;
  let database: TestDatabase;
  let pool: DatabasePool;
  let prefix: string;
  let observer: ChannelModel;
  let publisher: ChannelModel;
  const outcomes: Outcome[] = [];
  const names = () => topologyNames(prefix);
  const queues = () => consumerQueues(prefix, CONSUMER_NAME, RETRY_DELAYS.length);

  let tag = 0;
  /** Addresses and numbers unique to one test, so tests read only their own messages. */
  const unique = () => {
    tag++;
    const digits = String(tag).padStart(3, '0');
    return {
      email: (name: string) => `${name}.${tag}@example.com`,
      mobile: (n: number) => `1202555${digits}${n}`,
    };
  };
  const mailTo = (address: string) => ctx.smtp.received.filter((m) => m.to.includes(address));
  const smsTo = (number: string) => ctx.twilio.sent.filter((m) => m.to === number);
  const outcomesOf = (eventId: string) => outcomes.filter((o) => o.data.cause_event_id === eventId);

  const publish = async (body: unknown, raw?: string) => {
    const ch = await publisher.createConfirmChannel();
    const type = (body as { type?: string } | undefined)?.type ?? 'request.sent';
    ch.publish(names().events, type, Buffer.from(raw ?? JSON.stringify(body)), {
      persistent: true,
      messageId: (body as { id?: string } | undefined)?.id,
    });
    await ch.waitForConfirms();
    await ch.close();
  };
  const queueDepth = async (queue: string) => {
    const ch = await publisher.createChannel();
    const { messageCount } = await ch.checkQueue(queue);
    await ch.close();
    return messageCount;
  };
  const deliveryStatus = (eventId: string, signerRef: string, channel: string) =>
    db.maybeOne(
      pool,
      t.type({ status: t.string, attempts: t.number, last_error: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT status, attempts, last_error FROM deliveries
                 WHERE event_id = ${eventId} AND signer_ref = ${signerRef} AND channel = ${channel}`,
    );
  const settled = (eventId: string, count: number) =>
    eventually(
      () => Promise.resolve(outcomesOf(eventId).length >= count ? outcomesOf(eventId) : undefined),
      15_000,
    );
  /** Lets a redelivery or a stray retry show itself before asserting that nothing more was sent. */
  const quiet = async () => {
    await eventually(async () => {
      const depths = await Promise.all([queues().main, ...queues().retries].map(queueDepth));
      return depths.every((d) => d === 0) ? true : undefined;
    }, 10_000);
    await new Promise((r) => setTimeout(r, 300));
  };

  before(async () => {
    database = await createTestDatabase('notifier');
    prefix = amqpPrefix('notifier');
    ctx.smtp = await startSmtpServer();
    ctx.smtpProxy = await startTcpProxy(ctx.smtp.port);
    ctx.twilio = await startTwilioApi();
    const amqpUrl = new URL(infra().amqpUrl);
    ctx.amqpProxy = await startTcpProxy(Number(amqpUrl.port || 5672), amqpUrl.hostname);
    const proxiedAmqp = new URL(amqpUrl);
    proxiedAmqp.host = `127.0.0.1:${ctx.amqpProxy.port}`;

    const config = parseConfig({
      DATABASE_URL: database.url,
      AMQP_URL: proxiedAmqp.toString(),
      AMQP_PREFIX: prefix,
      PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
      KEY_ENCRYPTION_KEYS: 'k1:a-test-key-encryption-secret-of-32-characters',
      SMTP_URL: `smtp://127.0.0.1:${ctx.smtpProxy.port}`,
      EMAIL_FROM: 'E-signature <no-reply@esign.example>',
      TWILIO_ACCOUNT_SID: ctx.twilio.accountSid,
      TWILIO_AUTH_TOKEN: ctx.twilio.authToken,
      TWILIO_FROM: '+12025550100',
      TWILIO_API_BASE_URL: ctx.twilio.baseUrl,
      NOTIFIER_RETRY_DELAYS_MS: RETRY_DELAYS.join(','),
      // Quotas of this run's own: runs on one machine must not spend each other's.
      REDIS_URL: redisUrl(),
      NOTIFIER_QUOTA_KEY_PREFIX: redisKeyPrefix('notifier-quota'),
      LOG_LEVEL: 'silent',
    });
    ctx.notifier = await startNotifierService(config, testLogger('notifier'));
    pool = await createDatabasePool(database.url);

    publisher = await amqplib.connect(infra().amqpUrl);
    observer = await amqplib.connect(infra().amqpUrl);
    const ch: Channel = await observer.createChannel();
    await ch.assertExchange(names().events, 'topic', { durable: true });
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, names().events, 'notification.*');
    await ch.consume(queue, (message) => {
      if (message === null) return;
      const decoded = Outcome.decode(JSON.parse(message.content.toString('utf8')));
      if (decoded._tag === 'Right') outcomes.push(decoded.right);
      ch.ack(message);
    });
    // The notifier declares its queue once connected; publish only then. Its broker setup
    // goes on after that (the webhook consumer's queues): a test that cuts the broker at once
    // can catch the connection mid-setup, where amqplib's recovery has no 'error' listener yet.
    await untilQueueDeclared(publisher, queues().main);
  });

  after(async () => {
    for (const step of ctx.notifier?.steps ?? []) await step.run();
    await observer?.close();
    await publisher?.close();
    await pool?.end();
    await Promise.all([
      ctx.smtpProxy?.close(),
      ctx.amqpProxy?.close(),
      ctx.smtp?.close(),
      ctx.twilio?.close(),
    ]);
    const q = queues();
    const w = consumerQueues(prefix, WEBHOOK_CONSUMER_NAME, RETRY_DELAYS.length);
    await deleteAmqpObjects({
      queues: [q.main, q.parked, ...q.retries, w.main, w.parked, ...w.retries],
      exchanges: [names().events, names().deadLetter],
    });
    await database?.drop();
  });

  return {
    ctx,
    unique,
    mailTo,
    smsTo,
    outcomesOf,
    publish,
    queues,
    queueDepth,
    deliveryStatus,
    settled,
    quiet,
  };
};
