// The scale-out drill (issue #25, part 3): two replicas of every service as separate
// processes, each service behind one round-robin address (as a Kubernetes Service is),
// sharing Postgres, RabbitMQ and Redis. What must hold for a fleet: rate limits for the
// whole fleet, a revoked token refused by every gateway within the promised bound, each
// outbox row relayed once, each message delivered once, and a rolling restart under
// steady load that loses no request and no send. Load is modest and bounds generous: it
// must pass on a busy 2-core machine.
import assert from 'node:assert/strict';
import amqplib from 'amqplib';
import { topologyNames } from '@esign/platform/messaging';
import { eventually, infra, startEsignSystem, type EsignSystem, type ServiceName } from '@esign/testing';
import { apiClient, bearer, expectStatus, type ApiClient } from './support/client.js';
import { retryingClient } from './support/retrying-client.js';
import {
  agreementRequest,
  clientOf,
  mailsTo,
  publishedAgreement,
  smsTo,
  unique,
  uniqueMobile,
  type RequestBody,
} from './support/flow.js';
import { signAt } from './support/signer.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What the README promises for revocations (INTROSPECTION_CACHE_SECONDS, default 5). */
const REVOCATION_BOUND_MS = 5_000;
const COSTLY_QUOTA = 20;
/** Sends per token in the load: well under the quota, retries with the same key included. */
const SENDS_PER_TOKEN = 8;

interface Tapped {
  readonly id: string;
  readonly type: string;
  readonly aggregateId: string;
}

describe('scale-out drill: two replicas of every service behind one address each', function () {
  this.timeout(600_000);
  let system: EsignSystem;
  let connection: amqplib.ChannelModel;
  const tapped: Tapped[] = [];

  before(async () => {
    system = await startEsignSystem({
      label: 'scale_out',
      replicas: 2,
      startTimeoutMs: 120_000,
      env: {
        // Send and remind are limited (they cost money); everything else is left free so
        // the load below is not refused. Exact counts are asserted, so a busy machine must
        // not turn a call into the Redis fallback or a 503 on a slow introspection.
        gateway: {
          RATE_LIMIT_COSTLY: `${COSTLY_QUOTA}/3600s`,
          GATEWAY_REPLICAS: '2',
          REDIS_TIMEOUT_MS: '10000',
          INTROSPECTION_TIMEOUT_MS: '20000',
          JWKS_TIMEOUT_MS: '20000',
        },
      },
    });
    // Every event the requests replicas relay, as the broker routes it: a queue of the
    // test's own bound to the events exchange with '#'.
    connection = await amqplib.connect(infra().amqpUrl);
    const channel = await connection.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, topologyNames(system.amqpPrefix).events, '#');
    await channel.consume(
      queue,
      (message) => {
        if (message === null) return;
        const event = JSON.parse(message.content.toString()) as {
          id: string;
          type: string;
          aggregate_id: string;
        };
        tapped.push({ id: event.id, type: event.type, aggregateId: event.aggregate_id });
      },
      { noAck: true },
    );
  });
  after(async () => {
    await connection?.close().catch(() => undefined);
    await system?.stop();
  });

  const gateways = () => system.replicasOf('gateway').map((g) => g.url);
  /** Each requests replica's `requests_executed_document_seals_total`, from its /metrics. */
  const sealsPerReplica = () =>
    Promise.all(
      system.replicasOf('requests').map(async (replica) => {
        const text = await (await fetch(`${replica.url}/metrics`)).text();
        return Number(/^requests_executed_document_seals_total(?:\{[^}]*\})? (\d+)$/m.exec(text)?.[1]);
      }),
    );

  it('runs two processes of every service, each behind one address', () => {
    for (const name of ['gateway', 'auth', 'requests', 'notifier'] as const) {
      const replicas = system.replicasOf(name);
      assert.equal(replicas.length, 2, name);
      assert.notEqual(replicas[0]!.process.pid, replicas[1]!.process.pid);
    }
    assert.ok(!gateways().includes(system.gatewayUrl), 'clients use the one address, not a replica');
  });

  it('holds a rate limit for the whole fleet: the quota once, not once per gateway', async () => {
    const tenant = await system.createTenant('Limits');
    const statuses: Array<{ replica: number; status: number }> = [];
    for (let i = 0; i < COSTLY_QUOTA * 2; i++) {
      const replica = i % 2;
      const response = await fetch(`${gateways()[replica]}/v1.1/requests/req_${unique()}/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token.accessToken}` },
      });
      await response.body?.cancel();
      statuses.push({ replica, status: response.status });
    }
    const admitted = statuses.filter((s) => s.status !== 429);
    assert.equal(admitted.length, COSTLY_QUOTA, JSON.stringify(statuses));
    assert.ok(
      admitted.every((s) => s.status === 404),
      'admitted calls reach the requests service (no such Request)',
    );
    for (const replica of [0, 1]) {
      assert.ok(
        statuses.some((s) => s.replica === replica && s.status === 429),
        `gateway replica ${replica} refuses once the fleet's quota is spent`,
      );
    }
  });

  it('refuses a revoked token at every gateway replica once the promised bound has passed', async () => {
    const tenant = await system.createTenant('Revoked');
    const call = (url: string) =>
      fetch(`${url}/v1.1/sites/${tenant.site.id}/requests`, {
        headers: { authorization: `Bearer ${tenant.token.accessToken}` },
      });
    // Both replicas have the token's good standing cached when it is revoked.
    for (const url of gateways()) assert.equal((await call(url)).status, 200);
    await system.admin('revoke-token', '--token', tenant.token.id);
    // Whatever the machine's speed, a call made after the bound must be refused.
    await sleep(REVOCATION_BOUND_MS + 250);
    for (const url of gateways()) {
      const response = await call(url);
      assert.equal(response.status, 401, url);
      assert.equal(((await response.json()) as { code: string }).code, 'token_inactive');
    }
  });

  it("seals each completed Request's executed document once, on one of the two requests replicas", async () => {
    const tenant = await system.createTenant('Sealed');
    const client = clientOf(system, tenant);
    const template = await publishedAgreement(client);
    const before = await sealsPerReplica();
    const completed = 4;
    for (let i = 0; i < completed; i++) {
      const email = `sealed-${unique()}@example.com`;
      const created = expectStatus(
        await client.api.post<RequestBody>(`/v1.1/sites/${client.site}/requests`, {
          contracts: [template],
          signers: [{ signer_id: email, signer: { email } }],
          fields: ['full_name', 'witness_signature', 'signature'].map((name) => ({
            name,
            assigned_to: email,
          })),
          render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
        }),
        201,
        'create',
      );
      expectStatus(await client.api.post(`/v1.1/requests/${created.body.id}/send`), 200, 'send');
      const signed = await signAt(created.body.signers[0]!.request_url, `Signer ${i}`);
      assert.equal(signed.status, 303, signed.page.slice(0, 500));
    }
    // Each completion wakes both replicas' issuers (ADR 2920); the claim gives it to one (ADR 2930).
    const sealed = async () => (await sealsPerReplica()).reduce((sum, n, i) => sum + n - before[i]!, 0);
    await eventually(async () => ((await sealed()) >= completed ? true : undefined), 120_000, 250);
    // A second replica's copy would follow the first within moments: give it time to show.
    await sleep(3000);
    assert.equal(await sealed(), completed, `seals per replica: ${String(await sealsPerReplica())}`);
  });

  it('loses no request and no send through a rolling restart of every service, relaying and delivering each once', async () => {
    const tenant = await system.createTenant('Rolling');
    const client = clientOf(system, tenant);
    const template = await publishedAgreement(client);
    const answers = new Map<string, number>();
    const retrying = retryingClient(answers, system);

    let rolling = true;
    const made: Array<{ id: string; email: string; mobile: string }> = [];
    const worker = async () => {
      // Sends are rate-limited per token (the test above): a fresh token every few sends.
      let api: ApiClient = client.api;
      for (let sends = 0; rolling; sends++) {
        if (sends > 0 && sends % SENDS_PER_TOKEN === 0) {
          const { access_token } = (await system.admin('create-token', '--app', tenant.appId)) as {
            access_token: string;
          };
          api = apiClient(system.gatewayUrl, bearer(access_token));
        }
        const email = `roll-${unique()}@example.com`;
        const mobile = uniqueMobile();
        const created = await retrying(
          api,
          `/v1.1/sites/${client.site}/requests`,
          agreementRequest(template, { email, mobile }),
          201,
        );
        const id = (created as RequestBody).id;
        await retrying(api, `/v1.1/requests/${id}/send`, undefined, 200);
        made.push({ id, email, mobile });
        await sleep(150);
      }
    };
    const load = Promise.all([worker(), worker()]);

    // One replica at a time, SIGTERM, each back and healthy before the next goes.
    const order: ServiceName[] = ['auth', 'requests', 'notifier', 'gateway'];
    const steps: string[] = [];
    await sleep(1000);
    for (const name of order) {
      for (const index of [0, 1]) {
        const restarted = await system.restartReplica(name, index, 'SIGTERM');
        steps.push(`${name}#${index} pid ${restarted.process.pid}`);
        await sleep(1000);
      }
    }
    rolling = false;
    await load;
    console.log(
      `      ${made.length} Requests created and sent through ${steps.length} restarts; answers: ${[
        ...answers,
      ]
        .map(([k, v]) => `${k}×${v}`)
        .join(', ')}`,
    );
    assert.ok(made.length >= 8, `steady load kept going (${made.length} Requests)`);

    // No request lost: each is sent.
    for (const { id } of made) {
      const view = expectStatus(await client.api.get<RequestBody>(`/v1.1/requests/${id}`), 200, 'get');
      assert.equal(view.body.state, 'sent', id);
    }
    // No send lost: every signer's message arrives; none twice (the SMTP and Twilio stand-ins count).
    await eventually(
      () =>
        Promise.resolve(
          made.every(
            ({ email, mobile }) =>
              mailsTo(system, email).length > 0 && smsTo(system, `+1${mobile}`).length > 0,
          )
            ? true
            : undefined,
        ),
      120_000,
      250,
    );
    // Each request.sent relayed: every Request's, and no event twice.
    await eventually(
      () =>
        Promise.resolve(
          made.every(({ id }) => tapped.some((e) => e.type === 'request.sent' && e.aggregateId === id))
            ? true
            : undefined,
        ),
      60_000,
      250,
    );
    // Late duplicates would come from a second relay or consumer: give them time to show.
    await sleep(3000);
    for (const { email, mobile } of made) {
      assert.equal(mailsTo(system, email).length, 1, `one e-mail to ${email}`);
      // The texts say whose they were: two Requests' links, or one Request's twice.
      const texts = smsTo(system, `+1${mobile}`);
      assert.equal(texts.length, 1, `one SMS to ${mobile}: ${texts.map((m) => m.body).join(' | ')}`);
    }
    const perEvent = new Map<string, number>();
    for (const event of tapped) perEvent.set(event.id, (perEvent.get(event.id) ?? 0) + 1);
    const twice = [...perEvent].filter(([, count]) => count > 1);
    assert.deepEqual(twice, [], 'no outbox row relayed twice');
    for (const { id } of made) {
      assert.equal(
        tapped.filter((e) => e.type === 'request.sent' && e.aggregateId === id).length,
        1,
        `one request.sent for ${id}`,
      );
    }
  });
});
