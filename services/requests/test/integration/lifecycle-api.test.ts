import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { DomainEvent, RequestSent, type RequestView } from '@esign/contracts';
import {
  connectAmqp,
  db,
  declareSharedTopology,
  sql,
  startOutboxRelay,
  topologyNames,
  type AmqpClient,
  type EventConsumer,
  type OutboxRelay,
  consumerQueues,
} from '@esign/platform';
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
import { postgresRequestRepository } from '../../src/adapters/postgres/postgres-request-repository.js';
import { NOTIFICATION_OUTCOMES_CONSUMER } from '../../src/application/lifecycle.js';
import { executionUrl } from '../../src/application/deps.js';
import { envelopes } from '../../src/application/events.js';
import { cancel } from '../../src/domain/signature-request.js';
import { useCases } from '../../src/application/use-cases.js';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from '../support/harness.js';
import { deliveryReport } from '../support/builders.js';
import { openExecutionLink } from '../support/execution-link.js';

/** A queue on the test's exchange that keeps every request.* event the relay publishes. */
const collector = async (exchange: string, queue: string) => {
  const connection = await amqplib.connect(infra().amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: false, autoDelete: true });
  await channel.bindQueue(queue, exchange, 'request.*');
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

const HOUR = 3_600_000;

describe('requests service: send through the outbox, and the lifecycle (real Postgres and RabbitMQ)', function () {
  this.timeout(60_000);
  let h: Harness;
  let proxy: TcpProxy;
  let amqp: AmqpClient;
  let relay: OutboxRelay;
  let sink: Awaited<ReturnType<typeof collector>>;
  let outcomes: EventConsumer;
  let outcomesClient: AmqpClient;
  let template: number;
  let headers: Record<string, string>;
  const prefix = amqpPrefix('lifecycle');
  const names = topologyNames(prefix);

  const create = async (body: Record<string, unknown> = {}): Promise<RequestView> =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [template],
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

  const post = (id: string, action: string) => h.http.post(`/v1.1/requests/${id}/${action}`).set(headers);

  const outboxRows = async (requestId: string) =>
    db.any(
      h.pool,
      t.type({ type: t.string, published_at: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT type, published_at FROM outbox WHERE envelope->>'aggregate_id' = ${requestId} ORDER BY seq`,
    );

  const openUrl = (view: RequestView, index = 0) =>
    openExecutionLink(h.deps, view.signers[index]!.request_url);

  before(async () => {
    // Sends hand their events to the relay at commit, as in the service (ADR 2660).
    h = await startHarness('lifecycle', {
      handoff: { publishCommitted: (events) => relay?.publishCommitted(events) },
    });
    template = await publishedTemplate(h.http);
    headers = await principal();
    // The relay reaches the broker through a proxy the test can cut.
    proxy = await startTcpProxy(Number(new URL(infra().amqpUrl).port || 5672));
    const viaProxy = new URL(infra().amqpUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    amqp = await connectAmqp(viaProxy.toString(), testLogger(), async (model) => {
      const ch = await model.createChannel();
      await declareSharedTopology(ch, prefix);
      await ch.close();
    });
    await eventually(() => Promise.resolve(amqp.isConnected() ? true : undefined));
    sink = await collector(names.events, `${prefix}.sink`);
    relay = startOutboxRelay({
      pool: h.pool,
      databaseUrl: h.database.url,
      amqp,
      exchange: names.events,
      logger: testLogger(),
    });
    outcomes = notificationOutcomesConsumer({
      prefix,
      logger: testLogger(),
      record: useCases(h.deps).recordNotificationOutcome,
      retryDelaysMs: [100],
    });
    outcomesClient = await connectAmqp(infra().amqpUrl, testLogger(), (model) => outcomes.setup(model));
  });

  after(async () => {
    await outcomes.stop();
    await outcomesClient.close();
    await relay.stop();
    await amqp.close();
    await sink.close();
    await proxy.close();
    await h.close();
    const queues = consumerQueues(prefix, NOTIFICATION_OUTCOMES_CONSUMER, 1);
    await deleteAmqpObjects({
      queues: [queues.main, queues.parked, ...queues.retries],
      exchanges: [names.events, names.deadLetter],
    });
  });

  describe('send', () => {
    it('publishes request.sent with what the notifier needs, and makes the Execution URLs live', async () => {
      const view = await create();
      assert.deepEqual(await openUrl(view), E.left({ _tag: 'NotYetSent' }));
      const sent = await post(view.id, 'send').expect(200);
      assert.equal(sent.body.state, 'sent');
      assert.ok(sent.body.sent_at);
      assert.deepEqual(
        (sent.body as RequestView).signers.map((s) => s.notifications),
        [
          { email: 'pending', sms: 'not_requested' },
          { email: 'no_address', sms: 'pending' },
          { email: 'not_requested', sms: 'not_requested' },
        ],
      );
      const [event] = await eventually(() =>
        Promise.resolve(
          sink.of('request.sent', view.id).length > 0 ? sink.of('request.sent', view.id) : undefined,
        ),
      );
      const decoded = RequestSent.decode(event);
      assert.ok(E.isRight(decoded));
      const data = decoded.right.data;
      assert.equal(decoded.right.site_id, SITE_A.id);
      assert.deepEqual(data.site, SITE_A);
      assert.deepEqual(data.contracts, [{ id: template, name: 'NDA' }]);
      assert.deepEqual(
        data.signers.map((s) => [s.signer_id, s.email, s.mobile_number, s.send_to, s.request_url]),
        [
          [
            'alice@example.com',
            'alice@example.com',
            null,
            { email: true, mobile_number: false },
            view.signers[0]!.request_url,
          ],
          ['bob', null, '15552001111', { email: false, mobile_number: true }, view.signers[1]!.request_url],
          ['carol', null, null, { email: false, mobile_number: false }, view.signers[2]!.request_url],
        ],
      );
      const opened = await openUrl(view, 1);
      assert.ok(E.isRight(opened));
      assert.equal(opened.right.signer.signerId, 'bob');
      assert.deepEqual(
        (await outboxRows(view.id)).map((r) => r.type),
        ['request.created', 'request.sent'],
      );
    });

    it('refuses a forged or altered Execution URL before reading anything', async () => {
      const view = await create();
      await post(view.id, 'send').expect(200);
      // The first signer's signature on the second signer's link.
      const url = new URL(view.signers[0]!.request_url);
      url.searchParams.set('s', view.signers[1]!.signer_ref);
      assert.deepEqual(await openExecutionLink(h.deps, url.toString()), E.left({ _tag: 'InvalidSignature' }));
    });

    it('names every unassigned field, changes nothing and publishes nothing', async () => {
      const view = await create({ fields: [{ name: 'agree', assigned_to: 'bob' }] });
      const refused = await post(view.id, 'send').expect(422);
      assert.equal(refused.body.code, 'send_preconditions_failed');
      assert.deepEqual(refused.body.unassigned_fields, ['full_name', 'signature']);
      assert.deepEqual(refused.body.errors, [
        { path: 'fields[0].assigned_to', message: 'field "full_name" is not assigned to a signer' },
        { path: 'fields[2].assigned_to', message: 'field "signature" is not assigned to a signer' },
      ]);
      const after = await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200);
      assert.deepEqual(after.body, view);
      assert.deepEqual(
        (await outboxRows(view.id)).map((r) => r.type),
        ['request.created'],
      );
    });

    it('names a missing contract or signer (data changed under it), and changes nothing', async () => {
      const noContracts = await create();
      await h.pool.query(sql.unsafe`DELETE FROM request_contracts WHERE request_id = ${noContracts.id}`);
      const a = await post(noContracts.id, 'send').expect(422);
      assert.deepEqual(a.body.errors, [{ path: 'contracts', message: 'at least one contract is required' }]);
      const noSigners = await create({ fields: [] });
      await h.pool.query(
        sql.unsafe`UPDATE request_fields SET assigned_to = NULL WHERE request_id = ${noSigners.id}`,
      );
      await h.pool.query(sql.unsafe`DELETE FROM request_signers WHERE request_id = ${noSigners.id}`);
      const b = await post(noSigners.id, 'send').expect(422);
      assert.deepEqual((b.body as { errors: unknown[] }).errors.slice(0, 1), [
        { path: 'signers', message: 'at least one signer is required' },
      ]);
      for (const id of [noContracts.id, noSigners.id]) {
        const read = await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200);
        assert.equal(read.body.state, 'draft');
        assert.deepEqual(
          (await outboxRows(id)).map((r) => r.type),
          ['request.created'],
        );
      }
    });

    it('answers 409 to a second send, and replays the first answer to a retry with its Idempotency-Key', async () => {
      const view = await create();
      const first = await post(view.id, 'send').set('Idempotency-Key', `send-${view.id}`).expect(200);
      const retry = await post(view.id, 'send').set('Idempotency-Key', `send-${view.id}`).expect(200);
      assert.deepEqual(retry.body, first.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      const again = await post(view.id, 'send').expect(409);
      assert.equal(again.body.code, 'invalid_state');
      assert.equal(again.body.state, 'sent');
      assert.equal((await outboxRows(view.id)).filter((r) => r.type === 'request.sent').length, 1);
    });

    it('lets exactly one of two concurrent sends succeed, and publishes exactly one event', async () => {
      for (let round = 0; round < 5; round++) {
        const view = await create();
        const [a, b] = await Promise.all([post(view.id, 'send'), post(view.id, 'send')]);
        assert.deepEqual([a.status, b.status].sort(), [200, 409]);
        await eventually(() =>
          Promise.resolve(sink.of('request.sent', view.id).length > 0 ? true : undefined),
        );
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(sink.of('request.sent', view.id).length, 1);
      }
    });

    it('gets request.sent to the broker promptly (handed to the relay at commit, ADR 2660)', async () => {
      const latencies: number[] = [];
      for (let i = 0; i < 20; i++) {
        const view = await create();
        const response = await post(view.id, 'send').expect(200);
        const answered = performance.now();
        assert.equal(response.body.state, 'sent');
        const at = await eventually(() => Promise.resolve(sink.receivedAt.get(`request.sent/${view.id}`)));
        latencies.push(Math.max(0, at - answered));
      }
      latencies.sort((a, b) => a - b);
      const p50 = latencies[10]!;
      console.log(
        `      send answered → request.sent received: p50 ${p50.toFixed(1)} ms, max ${latencies[19]!.toFixed(1)} ms (20 sends)`,
      );
      // Generous: the relay's polling fallback alone would take up to 1 s, and a hand-off
      // that never came 10 s.
      assert.ok(p50 < 500, `median ${p50} ms`);
    });

    it('succeeds while the broker is unreachable, and publishes the event once it is back', async () => {
      const view = await create();
      await eventually(() =>
        Promise.resolve(sink.of('request.created', view.id).length > 0 ? true : undefined),
      );
      proxy.cut();
      try {
        await eventually(() => Promise.resolve(amqp.isConnected() ? undefined : true));
        await post(view.id, 'send').expect(200);
        await new Promise((r) => setTimeout(r, 800));
        assert.equal(sink.of('request.sent', view.id).length, 0);
        const rows = await outboxRows(view.id);
        assert.deepEqual(
          rows.map((r) => [r.type, r.published_at === null]),
          [
            ['request.created', false],
            ['request.sent', true],
          ],
        );
      } finally {
        proxy.restore();
      }
      await eventually(
        () => Promise.resolve(sink.of('request.sent', view.id).length > 0 ? true : undefined),
        20_000,
      );
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(sink.of('request.sent', view.id).length, 1);
    });
  });

  describe('cancel, expiry and remind', () => {
    it('cancels a sent Request: its Execution URLs stop working and request.cancelled is published', async () => {
      const view = await create();
      await post(view.id, 'send').expect(200);
      assert.ok(E.isRight(await openUrl(view)));
      const cancelled = await post(view.id, 'cancel').send({}).expect(200);
      assert.equal(cancelled.body.state, 'cancelled');
      assert.ok(cancelled.body.cancelled_at);
      assert.deepEqual(await openUrl(view), E.left({ _tag: 'Closed', state: 'cancelled' }));
      const [event] = await eventually(() =>
        Promise.resolve(
          sink.of('request.cancelled', view.id).length > 0
            ? sink.of('request.cancelled', view.id)
            : undefined,
        ),
      );
      assert.deepEqual(event!.data, { request_id: view.id, previous_state: 'sent' });
      assert.equal((await post(view.id, 'cancel').expect(409)).body.state, 'cancelled');
      assert.equal((await post(view.id, 'send').expect(409)).body.code, 'invalid_state');
      const unknownBody = await post(view.id, 'cancel').send({ reason: 'x' }).expect(422);
      assert.deepEqual(unknownBody.body.errors, [{ path: 'reason', message: 'unknown field' }]);
    });

    it('kills the Execution URLs at expires_at, and the sweep marks the Request expired with its event', async () => {
      const view = await create({
        expires_at: new Date(h.deps.clock.now().getTime() + HOUR).toISOString(),
      });
      await post(view.id, 'send').expect(200);
      assert.ok(E.isRight(await openUrl(view)));
      h.clock.advance(HOUR);
      assert.deepEqual(await openUrl(view), E.left({ _tag: 'Expired' }), 'dead at once, before any sweep');
      assert.equal((await post(view.id, 'remind').expect(409)).body.code, 'request_expired');
      const swept = await useCases(h.deps).expireDueRequests(100)();
      assert.ok(E.isRight(swept) && swept.right >= 1);
      const read = await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200);
      assert.equal(read.body.state, 'expired');
      assert.ok(read.body.expired_at);
      await eventually(() =>
        Promise.resolve(sink.of('request.expired', view.id).length > 0 ? true : undefined),
      );
      assert.deepEqual(await useCases(h.deps).expireDueRequests(100)(), E.right(0), 'nothing left to expire');
      assert.equal((await post(view.id, 'cancel').expect(409)).body.state, 'expired');
    });

    it('reminds the signers who have not signed, no more often than the policy allows', async () => {
      const view = await create();
      await post(view.id, 'send').expect(200);
      const soon = await post(view.id, 'remind').expect(429);
      assert.equal(soon.body.code, 'remind_too_soon');
      assert.equal(soon.headers['retry-after'], '3600');
      h.clock.advance(HOUR);
      await h.pool.query(
        sql.unsafe`UPDATE request_signers SET state = 'signed', signed_at = now() WHERE request_id = ${view.id} AND signer_id = 'alice@example.com'`,
      );
      const reminded = await post(view.id, 'remind').expect(200);
      assert.equal(reminded.body.remind_count, 1);
      const [event] = await eventually(() =>
        Promise.resolve(
          sink.of('request.reminded', view.id).length > 0 ? sink.of('request.reminded', view.id) : undefined,
        ),
      );
      assert.deepEqual(
        (event!.data as { signers: { signer_id: string }[] }).signers.map((s) => s.signer_id),
        ['bob'],
        'only those who have not signed and can be reached',
      );
      assert.equal((await post(view.id, 'remind').expect(429)).headers['retry-after'], '3600');
      assert.equal((await post(randomUUID(), 'remind').expect(404)).body.code, 'not_found');
    });
  });

  describe('notification outcomes', () => {
    const publish = async (event: unknown, routingKey: string) => {
      const connection = await amqplib.connect(infra().amqpUrl);
      const channel = await connection.createConfirmChannel();
      channel.publish(names.events, routingKey, Buffer.from(JSON.stringify(event)), { persistent: true });
      await channel.waitForConfirms();
      await connection.close();
    };
    const outcome = (
      view: RequestView,
      type: 'notification.delivered' | 'notification.failed',
      signer: number,
      channel: 'email' | 'sms',
      at: string,
      extra = {},
    ) => deliveryReport(view, { type, signer, channel, at, extra });
    const statuses = async (id: string) =>
      ((await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200)).body as RequestView).signers.map(
        (s) => s.notifications,
      );

    it('MEDIUM 6: shows quota_exceeded, not a bare failure, for a message the notifier refused over a daily quota', async () => {
      const view = await create();
      await post(view.id, 'send').expect(200);
      const refused = outcome(view, 'notification.failed', 0, 'email', '2030-01-01T00:00:10.000Z', {
        error: "not sent: this Site's daily quota of 2 e-mails is used up; room for another within 12 hours",
        reason: 'quota_exceeded',
      });
      await publish(refused, refused.type);
      const status = await eventually(async () => {
        const s = await statuses(view.id);
        return s[0]!.email === 'pending' ? undefined : s[0]!.email;
      });
      assert.equal(status, 'quota_exceeded');
    });

    it("shows each signer's e-mail and SMS status as the notifier reports it, once per event, latest first", async () => {
      const view = await create();
      await post(view.id, 'send').expect(200);
      const delivered = outcome(view, 'notification.delivered', 0, 'email', '2030-01-01T00:00:10.000Z');
      await publish(delivered, delivered.type);
      const failed = outcome(view, 'notification.failed', 1, 'sms', '2030-01-01T00:00:10.000Z', {
        error: 'unreachable',
      });
      await publish(failed, failed.type);
      await eventually(async () => {
        const s = await statuses(view.id);
        return s[0]!.email === 'delivered' && s[1]!.sms === 'failed' ? true : undefined;
      });
      // A redelivery of the same event and a late, older report change nothing.
      await publish(delivered, delivered.type);
      const older = outcome(view, 'notification.failed', 0, 'email', '2030-01-01T00:00:05.000Z');
      await publish(older, older.type);
      await eventually(async () => {
        const n = await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM inbox WHERE event_id = ${older.id}`);
        return Number(n) === 1 ? true : undefined;
      });
      assert.deepEqual(await statuses(view.id), [
        { email: 'delivered', sms: 'not_requested' },
        { email: 'no_address', sms: 'failed' },
        { email: 'not_requested', sms: 'not_requested' },
      ]);
      assert.equal(
        Number(
          await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM inbox WHERE event_id = ${delivered.id}`),
        ),
        1,
      );
    });

    it('keeps a report that lands between another change loading the signer and writing it (ADR 2650)', async () => {
      const view = await create();
      await post(view.id, 'send').expect(200);
      const requests = postgresRequestRepository(h.pool);
      const loaded = await requests.findByVerifiedId(view.id)();
      assert.ok(E.isRight(loaded) && O.isSome(loaded.right));
      const previous = loaded.right.value;
      // The report needs no lock on the Request, so it can land while a change of the
      // same signer that read the Request before it is still in flight…
      const delivered = outcome(view, 'notification.delivered', 0, 'email', '2030-01-01T00:00:10.000Z');
      assert.deepEqual(await useCases(h.deps).recordNotificationOutcome(delivered)(), E.right('applied'));
      const changed = previous.signers.map((signer, i) =>
        i === 0
          ? { ...signer, link: { version: signer.link.version + 1, issuedAt: '2030-01-01T00:00:11.000Z' } }
          : signer,
      );
      // …whose write, from its older copy, leaves the status the report set.
      await requests.update(previous, { ...previous, signers: changed }, [])();
      assert.deepEqual((await statuses(view.id))[0], { email: 'delivered', sms: 'not_requested' });
    });

    it('stores nothing of a transition whose Request moved on since it was read (ADR 2800)', async () => {
      const view = await create();
      const requests = postgresRequestRepository(h.pool);
      const read = async () => {
        const found = await requests.find(view.id, [SITE_A.id])();
        assert.ok(E.isRight(found) && O.isSome(found.right));
        return found.right.value;
      };
      const stale = await read();
      await post(view.id, 'send').expect(200);
      const snapshot = () =>
        h.pool.one(sql.unsafe`
          SELECT r.state, r.version, r.updated_at::text,
                 (SELECT json_agg(rs ORDER BY rs.position) FROM request_signers rs WHERE rs.request_id = r.id) AS signers,
                 (SELECT count(*) FROM outbox o WHERE o.envelope->>'aggregate_id' = r.id::text)::int AS events
          FROM requests r WHERE r.id = ${view.id}`);
      const before = await snapshot();
      assert.equal(before.version, 1);
      // A cancel decided on the draft it read, with a signer changed and its event: the
      // send stored since, so the write must leave the row, the signers and the outbox.
      const cancelOf = (previous: typeof stale) => {
        const decided = cancel(previous, '2030-01-01T00:00:20.000Z');
        assert.ok(E.isRight(decided));
        const request = {
          ...decided.right.request,
          signers: decided.right.request.signers.map((signer, i) =>
            i === 0
              ? {
                  ...signer,
                  link: { version: signer.link.version + 1, issuedAt: '2030-01-01T00:00:20.000Z' },
                }
              : signer,
          ),
        };
        const events = envelopes(
          { ids: h.deps.ids, executionUrl: executionUrl(h.deps) },
          request,
          decided.right.events,
        );
        return { request, events };
      };
      const refused = cancelOf(stale);
      assert.deepEqual(
        await requests.updateIfCurrent(stale, refused.request, refused.events)(),
        E.right(false),
      );
      assert.deepEqual(await snapshot(), before);
      // Read again, the same change is stored whole.
      const current = await read();
      const { request: cancelled, events } = cancelOf(current);
      assert.deepEqual(await requests.updateIfCurrent(current, cancelled, events)(), E.right(true));
      const after = await snapshot();
      assert.equal(after.state, 'cancelled');
      assert.equal(after.version, 2);
      assert.equal(after.events, before.events + 1);
      assert.notDeepEqual(after.signers, before.signers);
      // What it stored is the current copy now: a change made from it is stored too.
      const later = { ...cancelled, updatedAt: '2030-01-01T00:00:21.000Z' };
      assert.deepEqual(await requests.updateIfCurrent(cancelled, later, [])(), E.right(true));
      assert.equal((await snapshot()).version, 3);
    });

    it('lets one of eight racing transitions of one Request win at a time, each deciding on the state it finds (ADR 2800)', async () => {
      const view = await create();
      const sends = await Promise.all(Array.from({ length: 8 }, () => post(view.id, 'send')));
      assert.deepEqual(sends.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
      const cancels = await Promise.all(Array.from({ length: 8 }, () => post(view.id, 'cancel')));
      assert.deepEqual(cancels.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
      assert.ok(cancels.every((r) => r.status === 200 || r.body.state === 'cancelled'));
      const rows = await outboxRows(view.id);
      assert.deepEqual(
        rows.map((r) => r.type),
        ['request.created', 'request.sent', 'request.cancelled'],
      );
      const version = await h.pool.oneFirst(sql.unsafe`SELECT version FROM requests WHERE id = ${view.id}`);
      assert.equal(version, 2);
    });

    it('leaves the later report by occurrence when two on one channel race (ADR 2650)', async () => {
      const view = await create();
      await post(view.id, 'send').expect(200);
      const reports = Array.from({ length: 8 }, (_, i) =>
        outcome(view, 'notification.failed', 0, 'email', `2030-01-01T00:00:1${i}.000Z`),
      );
      const results = await Promise.all(reports.map((r) => useCases(h.deps).recordNotificationOutcome(r)()));
      assert.ok(results.every((r) => E.isRight(r) && r.right === 'applied'));
      const stored = await h.pool.oneFirst(
        sql.unsafe`SELECT email_delivery->>'event_id' FROM request_signers WHERE request_id = ${view.id} AND signer_ref = ${view.signers[0]!.signer_ref}`,
      );
      assert.equal(stored, reports[7]!.id);
    });

    it('sends in two statements outside a transaction, and records an outcome in one, writing the signer only (ADRs 2650, 2800)', async () => {
      const view = await create();
      h.statements.length = 0;
      await post(view.id, 'send').expect(200);
      const writeAt = h.statements.findIndex((st) => /UPDATE requests SET/.test(st.sql));
      const connection = h.statements[writeAt]!.connectionId;
      const sendStatements = h.statements
        .slice(0, writeAt + 1)
        .filter((st) => st.connectionId === connection);
      // Printed for the record (docs/benchmarks.md quotes it).
      console.log(`      send of 3 signers: ${sendStatements.length} statements, no transaction`);
      // The read, without a lock, and one write guarded by the version read (ADR 2800):
      // the Request's row first, the signers and the outbox only if it was written.
      assert.equal(sendStatements.length, 2, sendStatements.map((st) => st.sql).join('\n---\n'));
      assert.ok(
        sendStatements.every((st) => st.transactionId === null),
        'outside a transaction',
      );
      assert.match(sendStatements[0]!.sql, /^\s*SELECT\b[\s\S]*r\.version/);
      assert.doesNotMatch(sendStatements[0]!.sql, /FOR UPDATE/);
      assert.match(
        sendStatements[1]!.sql,
        /^\s*WITH guard AS \(\s*UPDATE requests SET[\s\S]*WHERE id = \$\d+ AND version = \$\d+[\s\S]*UPDATE request_signers[\s\S]*EXISTS \(SELECT 1 FROM guard\)[\s\S]*INSERT INTO outbox[\s\S]*EXISTS \(SELECT 1 FROM guard\)/,
      );
      const xmin = () => h.pool.oneFirst(sql.unsafe`SELECT xmin::text FROM requests WHERE id = ${view.id}`);
      const before = await xmin();
      const delivered = outcome(view, 'notification.delivered', 0, 'email', '2030-01-01T00:00:10.000Z');
      h.statements.length = 0;
      const result = await useCases(h.deps).recordNotificationOutcome(delivered)();
      assert.deepEqual(result, E.right('applied'));
      assert.equal((await statuses(view.id))[0]!.email, 'delivered');
      assert.equal(await xmin(), before, 'the requests row was rewritten');
      // The outcome's own statement (the relay shares the pool): the inbox claim and the
      // signer's delivery status together, with no BEGIN, lock or read of the Request.
      const claim = h.statements.find((st) => /INSERT INTO inbox/.test(st.sql));
      assert.match(claim!.sql, /UPDATE request_signers/);
      assert.equal(claim!.transactionId, null, 'outside a transaction');
      const outcomeStatements = h.statements.filter((st) => st.connectionId === claim!.connectionId);
      assert.equal(outcomeStatements.length, 1, outcomeStatements.map((st) => st.sql).join('\n---\n'));
      console.log(`      a delivery outcome: ${outcomeStatements.length} statement, no transaction`);
    });
  });
});
