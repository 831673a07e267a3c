import assert from 'node:assert/strict';
import amqplib from 'amqplib';
import { consumerQueues, topologyNames } from '@esign/platform/messaging';
import { PRINCIPAL_AUDIENCES, type DomainEvent, type RequestView } from '@esign/contracts';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  eventually,
  infra,
  startService,
  testGatewayKeys,
  type RunningService,
  type TestDatabase,
} from '@esign/testing';
import { NOTIFICATION_OUTCOMES_CONSUMER } from '../../src/application/delivery-outcomes.js';
import { htmlTemplateBody, SITE_A } from '../support/harness.js';
import { deliveryReport } from '../support/builders.js';

/**
 * The built service as `npm start` runs it: migrations at start-up, the HTTP API, the
 * outbox relay, the expiry sweep and the notification-outcome consumer, then a clean
 * exit on SIGTERM.
 */
describe('requests service: the real process (built), end to end', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let service: RunningService;
  const prefix = amqpPrefix('requests_process');
  const names = topologyNames(prefix);

  before(async () => {
    database = await createTestDatabase('requests_process');
    service = await startService('requests', {
      DATABASE_URL: database.url,
      AMQP_URL: infra().amqpUrl,
      AMQP_PREFIX: prefix,
      PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
      URL_SIGNING_KEYS: 'k1:a-url-signing-secret-of-enough-length-00',
      PUBLIC_BASE_URL: 'https://esign.example',
      EXPIRY_SWEEP_INTERVAL_MS: '200',
    });
  });

  after(async () => {
    if (service.process.exitCode === null) await service.stop();
    await database.drop();
    const queues = consumerQueues(prefix, NOTIFICATION_OUTCOMES_CONSUMER, 5);
    await deleteAmqpObjects({
      queues: [queues.main, queues.parked, ...queues.retries],
      exchanges: [names.events, names.deadLetter],
    });
  });

  it('serves /metrics from the registry the platform made: process figures and its executed-document counters', async () => {
    const response = await fetch(`${service.url}/metrics`);
    assert.equal(response.status, 200);
    const text = await response.text();
    // Registered only in the platform's registry: an app serving a registry of its own (and
    // keeping two, each with an event-loop monitor) would not list them.
    assert.match(text, /^requests_executed_document_seals_total\{service="requests"\} 0$/m);
    assert.match(text, /^requests_executed_document_failures_total\{service="requests"\} 0$/m);
    assert.match(text, /^process_cpu_user_seconds_total\{service="requests"\} /m);
  });

  it('sends through the outbox, sweeps expiry, applies outcomes, and stops cleanly on SIGTERM', async () => {
    const headers = {
      'content-type': 'application/json',
      'x-esign-principal': await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.requests, {
        sub: 'u',
        token_id: 't',
        sites: [SITE_A],
      }),
    };
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    await eventually(async () => ((await fetch(`${service.url}/readyz`)).ok ? true : undefined), 10_000);

    const connection = await amqplib.connect(infra().amqpUrl);
    const channel = await connection.createChannel();
    const sink = `${prefix}.sink`;
    await channel.assertQueue(sink, { durable: false, autoDelete: true });
    await channel.bindQueue(sink, names.events, 'request.*');
    const received: DomainEvent[] = [];
    await channel.consume(
      sink,
      (m) => m && (received.push(JSON.parse(m.content.toString()) as DomainEvent), channel.ack(m)),
    );

    try {
      const template = await call('POST', `/v1.1/sites/${SITE_A.id}/contracts`, htmlTemplateBody());
      assert.equal(template.status, 201);
      assert.equal((await call('POST', `/v1.1/contracts/${String(template.body.id)}/publish`)).status, 200);
      const created = await call('POST', `/v1.1/sites/${SITE_A.id}/requests`, {
        contracts: [template.body.id],
        signers: [{ signer_id: 'alice', signer: { email: 'alice@example.com' }, send_to: { email: true } }],
        // By e-mail: this field and all the remaining ones go to Alice.
        fields: [{ name: 'signature', assigned_to: 'alice@example.com' }],
        expires_at: new Date(Date.now() + 3_000).toISOString(),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const view = created.body as unknown as RequestView;
      assert.equal((await call('POST', `/v1.1/requests/${view.id}/send`)).status, 200);
      await eventually(() =>
        Promise.resolve(received.some((e) => e.type === 'request.sent') ? true : undefined),
      );

      const confirm = await connection.createConfirmChannel();
      confirm.publish(
        names.events,
        'notification.delivered',
        Buffer.from(JSON.stringify(deliveryReport(view))),
        { persistent: true },
      );
      await confirm.waitForConfirms();
      await eventually(async () => {
        const read = (await call('GET', `/v1.1/requests/${view.id}`)).body as unknown as RequestView;
        return read.signers[0]!.notifications.email === 'delivered' ? true : undefined;
      });

      await eventually(
        () => Promise.resolve(received.some((e) => e.type === 'request.expired') ? true : undefined),
        10_000,
      );
      assert.equal(
        ((await call('GET', `/v1.1/requests/${view.id}`)).body as { state: string }).state,
        'expired',
      );
    } finally {
      await connection.close();
    }
    assert.equal(await service.stop('SIGTERM'), 0, service.output());
  });
});
