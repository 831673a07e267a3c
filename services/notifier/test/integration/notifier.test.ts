import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import * as t from 'io-ts';
import request from 'supertest';
import { NotificationDelivered, NotificationFailed, type NotifiedSigner } from '@esign/contracts';
import {
  consumerQueues,
  createDatabasePool,
  db,
  sql,
  topologyNames,
  type DatabasePool,
} from '@esign/platform';
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
import { requestReminded, requestSent, signer } from '../support/events.js';

const RETRY_DELAYS = [50, 100, 200, 400, 800];
const Outcome = t.union([NotificationDelivered, NotificationFailed]);
type Outcome = t.TypeOf<typeof Outcome>;

/**
 * The notifier as it runs (config → composition root), against real Postgres and
 * RabbitMQ, a real SMTP server and a local Twilio Messages API. SMTP and RabbitMQ are
 * reached through TCP proxies the tests cut and restore.
 */
describe('notifier: e-mail and SMS to signers when a Request is sent', function () {
  let database: TestDatabase;
  let pool: DatabasePool;
  let prefix: string;
  let smtp: SmtpDouble;
  let smtpProxy: TcpProxy;
  let amqpProxy: TcpProxy;
  let twilio: TwilioApiDouble;
  let notifier: RunningNotifier;
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
  const mailTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
  const smsTo = (number: string) => twilio.sent.filter((m) => m.to === number);
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
    smtp = await startSmtpServer();
    smtpProxy = await startTcpProxy(smtp.port);
    twilio = await startTwilioApi();
    const amqpUrl = new URL(infra().amqpUrl);
    amqpProxy = await startTcpProxy(Number(amqpUrl.port || 5672), amqpUrl.hostname);
    const proxiedAmqp = new URL(amqpUrl);
    proxiedAmqp.host = `127.0.0.1:${amqpProxy.port}`;

    const config = parseConfig({
      DATABASE_URL: database.url,
      AMQP_URL: proxiedAmqp.toString(),
      AMQP_PREFIX: prefix,
      PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
      KEY_ENCRYPTION_KEYS: 'k1:a-test-key-encryption-secret-of-32-characters',
      SMTP_URL: `smtp://127.0.0.1:${smtpProxy.port}`,
      EMAIL_FROM: 'E-signature <no-reply@esign.example>',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+12025550100',
      TWILIO_API_BASE_URL: twilio.baseUrl,
      NOTIFIER_RETRY_DELAYS_MS: RETRY_DELAYS.join(','),
      // Quotas of this run's own: runs on one machine must not spend each other's.
      REDIS_URL: redisUrl(),
      NOTIFIER_QUOTA_KEY_PREFIX: redisKeyPrefix('notifier-quota'),
      LOG_LEVEL: 'silent',
    });
    notifier = await startNotifierService(config, testLogger('notifier'));
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
    // The notifier declares its queue once connected; publish only then.
    await eventually(async () => {
      const probe = await publisher.createChannel();
      probe.on('error', () => undefined);
      try {
        await probe.checkQueue(queues().main);
        await probe.close();
        return true;
      } catch {
        return undefined;
      }
    }, 10_000);
  });

  after(async () => {
    for (const step of notifier?.steps ?? []) await step.run();
    await observer?.close();
    await publisher?.close();
    await pool?.end();
    await Promise.all([smtpProxy?.close(), amqpProxy?.close(), smtp?.close(), twilio?.close()]);
    const q = queues();
    const w = consumerQueues(prefix, WEBHOOK_CONSUMER_NAME, RETRY_DELAYS.length);
    await deleteAmqpObjects({
      queues: [q.main, q.parked, ...q.retries, w.main, w.parked, ...w.retries],
      exchanges: [names().events, names().deadLetter],
    });
    await database?.drop();
  });

  it('e-mails and texts exactly the signers send_to selects, each with their own Execution URL', async () => {
    const u = unique();
    const alice = signer({ signer_id: u.email('alice'), email: u.email('alice') });
    const bob = signer({
      signer_id: u.email('bob'),
      email: u.email('bob'),
      mobile_number: u.mobile(2),
      send_to: { email: true, mobile_number: true },
    });
    // Identified by a mobile number only: an SMS, never an e-mail.
    const carol = signer({
      signer_id: u.mobile(3).slice(1),
      email: null,
      mobile_number: u.mobile(3),
      send_to: { email: true, mobile_number: true },
    });
    // A GUID and no address: nothing to reach.
    const dave = signer({ signer_id: randomUUID(), email: null });
    const erin = signer({ email: u.email('erin'), send_to: { email: false, mobile_number: false } });
    const event = requestSent([alice, bob, carol, dave, erin]);
    await publish(event);

    const reported = await settled(event.id, 4);
    await quiet();
    const all = [alice, bob, carol, dave, erin];
    const emailed = smtp.received.filter((m) => all.some((s) => s.email !== null && m.to.includes(s.email)));
    assert.deepEqual(emailed.map((m) => m.to).sort(), [[u.email('alice')], [u.email('bob')]]);
    const texted = twilio.sent.filter((m) =>
      all.some((s) => s.mobile_number !== null && m.to === `+${s.mobile_number}`),
    );
    assert.deepEqual(texted.map((m) => m.to).sort(), [`+${u.mobile(2)}`, `+${u.mobile(3)}`]);

    const own = (s: NotifiedSigner, text: string) =>
      text.includes(s.request_url) && all.filter((o) => o !== s).every((o) => !text.includes(o.signer_ref));
    for (const s of [alice, bob]) {
      const [mail] = mailTo(s.email!);
      assert.ok(own(s, mail!.mail.text ?? ''), `text part for ${s.email}`);
      assert.ok(
        (mail!.mail.html ?? '').includes(s.request_url.replaceAll('&', '&amp;')),
        `html part for ${s.email}`,
      );
      assert.equal(mail!.mail.subject, 'Acme Lettings sent you "Tenancy agreement" and "Inventory" to sign');
      assert.equal(mail!.from, 'no-reply@esign.example');
    }
    for (const s of [bob, carol])
      assert.ok(own(s, smsTo(`+${s.mobile_number}`)[0]!.body), `SMS for ${s.signer_id}`);

    assert.deepEqual(
      reported.map((o) => [o.type, o.data.signer_ref, o.data.channel]).sort(),
      [
        ['notification.delivered', alice.signer_ref, 'email'],
        ['notification.delivered', bob.signer_ref, 'email'],
        ['notification.delivered', bob.signer_ref, 'sms'],
        ['notification.delivered', carol.signer_ref, 'sms'],
      ].sort(),
    );
    const bobSms = reported.find((o) => o.data.signer_ref === bob.signer_ref && o.data.channel === 'sms');
    assert.equal(bobSms?.data.provider_message_id, smsTo(`+${bob.mobile_number}`)[0]?.sid);
    assert.equal(bobSms?.data.request_id, 'rq_1');
    assert.equal(bobSms?.site_id, 7);
  });

  it('sends one message when RabbitMQ redelivers the event mid-send, and one when it is published twice', async () => {
    const u = unique();
    const alice = signer({ email: u.email('alice') });
    const event = requestSent([alice]);
    // Slow SMTP keeps the message in hand while the broker connection drops: RabbitMQ
    // requeues it unacked and hands it over again once the notifier reconnects.
    smtpProxy.delay(150);
    await publish(event);
    await eventually(async () =>
      (await deliveryStatus(event.id, alice.signer_ref, 'email'))?.status === 'sending' ? true : undefined,
    );
    amqpProxy.cut();
    await new Promise((r) => setTimeout(r, 200));
    amqpProxy.restore();
    await settled(event.id, 1);
    smtpProxy.delay(0);
    await quiet();
    const skipped = async () => {
      const text = (await request(notifier.app.callback()).get('/metrics')).text;
      return [
        ...text.matchAll(/notifier_messages_total\{[^}]*outcome="skipped_(?:settled|busy)"[^}]*\} (\d+)/g),
      ].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    // The redelivered copy was handled: it found the message sent (or being sent) and sent nothing.
    const skippedAfterRedelivery = await eventually(async () => {
      const n = await skipped();
      return n >= 1 ? n : undefined;
    });
    assert.equal(mailTo(u.email('alice')).length, 1);

    // The outbox relay's duplicate: the same envelope published again.
    await publish(event);
    await eventually(async () => ((await skipped()) > skippedAfterRedelivery ? true : undefined));
    await quiet();
    assert.equal(mailTo(u.email('alice')).length, 1);
    assert.equal(outcomesOf(event.id).length, 1);
    assert.equal((await deliveryStatus(event.id, alice.signer_ref, 'email'))?.attempts, 1);
  });

  it('retries a refused SMTP connection and a Twilio 429, redoing only what was not accepted', async () => {
    const u = unique();
    const alice = signer({
      email: u.email('alice'),
      mobile_number: u.mobile(1),
      send_to: { email: true, mobile_number: true },
    });
    const bob = signer({ email: u.email('bob') });
    const event = requestSent([alice, bob]);
    smtpProxy.cut();
    twilio.failNext(1, 429, 20429, 'Too Many Requests');
    await publish(event);
    await eventually(async () => {
      const row = await deliveryStatus(event.id, bob.signer_ref, 'email');
      return row?.status === 'retrying' ? row : undefined;
    });
    await eventually(async () =>
      (await deliveryStatus(event.id, alice.signer_ref, 'sms'))?.status === 'delivered' ? true : undefined,
    );
    smtpProxy.restore();

    const reported = await settled(event.id, 3);
    await quiet();
    assert.deepEqual(
      reported.map((o) => o.type),
      Array(3).fill('notification.delivered'),
    );
    assert.equal(mailTo(u.email('alice')).length, 1);
    assert.equal(mailTo(u.email('bob')).length, 1);
    assert.equal(smsTo(`+${u.mobile(1)}`).length, 1);
    assert.deepEqual(
      twilio.requests.filter((r) => r.to === `+${u.mobile(1)}`).map((r) => r.status),
      [429, 201],
    );
    const bobRow = await deliveryStatus(event.id, bob.signer_ref, 'email');
    assert.equal(bobRow?.status, 'delivered');
    assert.ok((bobRow?.attempts ?? 0) >= 2);
  });

  it('records permanent refusals and exhausted retries as failed, and still delivers the rest once', async () => {
    const u = unique();
    const gone = signer({ email: u.email('gone') });
    const invalid = signer({
      email: null,
      mobile_number: u.mobile(1),
      send_to: { email: false, mobile_number: true },
    });
    const down = signer({
      email: null,
      mobile_number: u.mobile(2),
      send_to: { email: false, mobile_number: true },
    });
    const fine = signer({ email: u.email('fine') });
    smtp.refuseRecipient(u.email('gone'), 550, '5.1.1 No such user here');
    twilio.refuse(
      `+${u.mobile(1)}`,
      400,
      21211,
      `The 'To' number +${u.mobile(1)} is not a valid phone number.`,
    );
    twilio.refuse(`+${u.mobile(2)}`, 503, 20503, 'Service Unavailable');
    const parkedBefore = await queueDepth(queues().parked);
    const event = requestSent([gone, invalid, down, fine]);
    await publish(event);

    const reported = await settled(event.id, 4);
    await quiet();
    const byRef = (ref: string) => reported.find((o) => o.data.signer_ref === ref);
    assert.equal(byRef(fine.signer_ref)?.type, 'notification.delivered');
    assert.equal(byRef(gone.signer_ref)?.type, 'notification.failed');
    assert.match(byRef(gone.signer_ref)?.data.error ?? '', /550 5\.1\.1 No such user here/);
    assert.equal(byRef(invalid.signer_ref)?.type, 'notification.failed');
    assert.match(byRef(invalid.signer_ref)?.data.error ?? '', /21211/);
    assert.equal(byRef(down.signer_ref)?.type, 'notification.failed');
    assert.match(
      byRef(down.signer_ref)?.data.error ?? '',
      new RegExp(`^gave up after ${RETRY_DELAYS.length + 1} attempts: Twilio 503`),
    );

    assert.equal(mailTo(u.email('fine')).length, 1, 'the accepted message is not resent by the retries');
    assert.equal(mailTo(u.email('gone')).length, 0);
    assert.equal(
      twilio.requests.filter((r) => r.to === `+${u.mobile(1)}`).length,
      1,
      'a permanent refusal is not retried',
    );
    assert.equal(twilio.requests.filter((r) => r.to === `+${u.mobile(2)}`).length, RETRY_DELAYS.length + 1);
    assert.equal(await queueDepth(queues().parked), parkedBefore, 'a settled event is acked, not parked');
  });

  it('parks a poison message and delivers the next good one', async () => {
    const u = unique();
    const parkedBefore = await queueDepth(queues().parked);
    await publish(undefined, '{not json');
    await publish({ ...requestSent([signer({ email: u.email('never') })]), data: { request_id: 'rq_x' } });
    const good = requestSent([signer({ email: u.email('good') })]);
    await publish(good);

    await settled(good.id, 1);
    await eventually(async () =>
      (await queueDepth(queues().parked)) === parkedBefore + 2 ? true : undefined,
    );
    assert.equal(mailTo(u.email('good')).length, 1);
    assert.equal(mailTo(u.email('never')).length, 0);
  });

  it('sends reminders too, as new messages of their own', async () => {
    const u = unique();
    const alice = signer({ email: u.email('alice') });
    const reminder = requestReminded([alice]);
    await publish(reminder);
    const [outcome] = await settled(reminder.id, 1);
    assert.equal(outcome?.type, 'notification.delivered');
    const [mail] = mailTo(u.email('alice'));
    assert.match(mail?.mail.subject ?? '', /^Reminder: Acme Lettings is waiting for your signature/);
    assert.ok((mail?.mail.text ?? '').includes(alice.request_url));
  });

  it('serves health, readiness and metrics over HTTP, and no requests API', async () => {
    const http = request(notifier.app.callback());
    assert.equal((await http.get('/healthz')).status, 200);
    assert.equal((await http.get('/readyz')).status, 200);
    const metrics = await http.get('/metrics');
    assert.match(metrics.text, /notifier_messages_total\{[^}]*outcome="delivered"/);
    assert.equal((await http.get('/v1.1/requests')).status, 404);
  });
});
