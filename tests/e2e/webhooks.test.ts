// Webhooks through the whole system (ADR 2690): the requests service's outbox routes every
// event by its Site as well as its type, and the notifier's webhook queue is bound only
// for the Sites that have endpoints. An endpoint registered through the gateway must get
// the events of the Requests sent after it answered, from the real relay, not from a
// message a test published.
import assert from 'node:assert/strict';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import {
  clientOf,
  ok,
  publishedAgreement,
  sentAgreement,
  unique,
  uniqueMobile,
  type ClientOf,
} from './support/flow.js';
import { webhookReceiver } from './support/webhook-receiver.js';

describe('end to end through the gateway: webhooks routed by Site (ADR 2690)', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  const receiver = webhookReceiver();
  const delivered = receiver.delivered;

  before(async () => {
    await receiver.start();
    system = await startEsignSystem({
      label: 'e2e_webhooks',
      // The receiver is on loopback over plain HTTP, which production refuses.
      env: { notifier: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' } },
    });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
    await receiver.stop();
  });

  const sendOne = async (template: number) => (await sentAgreement(acme, template)).id;

  /** An endpoint of Acme's on the receiver, at `path`, for `types`. */
  const subscribe = async (path: string, types: readonly string[]) => {
    const body = { url: receiver.url(path), event_types: types, alert_email: 'ops@acme.example' };
    expectStatus(await acme.api.post(`/v1.1/sites/${acme.site}/webhooks`, body), 201);
  };

  it('delivers request.sent to an endpoint registered before the send, and only after it exists', async () => {
    const template = await publishedAgreement(acme);
    // Sent while the Site has no endpoint: its events are not routed to the fan-out.
    const before = await sendOne(template);
    await subscribe('hooks', ['request.sent']);
    const after = await sendOne(template);
    await eventually(() =>
      Promise.resolve(delivered.some((d) => d.data.request_id === after) ? true : undefined),
    );
    const sent = delivered.find((d) => d.data.request_id === after)!;
    assert.equal(sent.type, 'request.sent');
    assert.equal(sent.site_id, acme.site);
    assert.ok(
      !delivered.some((d) => d.data.request_id === before),
      'nothing for the send before the endpoint',
    );
  });

  it('delivers request.updated when the sender moves the expiry or changes the reminders (ADR 3150)', async () => {
    const template = await publishedAgreement(acme);
    await subscribe('settings', ['request.updated']);
    const id = await sendOne(template);
    const expiresAt = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const changed = expectStatus(
      await acme.api.call<{ next_reminder_at: string }>('PATCH', `/v1.1/requests/${id}`, {
        expires_at: expiresAt,
        reminder_interval_days: 3,
      }),
      200,
    ).body;
    const update = await eventually(() =>
      Promise.resolve(delivered.find((d) => d.type === 'request.updated' && d.data.request_id === id)),
    );
    assert.deepEqual(update.data, {
      request_id: id,
      expires_at: expiresAt,
      reminder_interval_days: 3,
      next_reminder_at: changed.next_reminder_at,
      changed: ['expires_at', 'reminder_interval_days'],
    });
  });

  it('delivers a template’s events: created, published, archived (ADR 3350)', async () => {
    await subscribe('templates', ['contract.created', 'contract.published', 'contract.archived']);
    const id = await publishedAgreement(acme);
    expectStatus(await acme.api.post(`/v1.1/contracts/${id}/archive`), 200);
    const told = await eventually(() => {
      const mine = delivered.filter((d) => d.type.startsWith('contract.') && d.data.contract_id === id);
      return Promise.resolve(mine.length === 3 ? mine : undefined);
    });
    assert.deepEqual(told.map((d) => [d.type, d.site_id, d.data.state, d.data.archived_at === null]).sort(), [
      ['contract.archived', acme.site, 'published', false],
      ['contract.created', acme.site, 'draft', true],
      ['contract.published', acme.site, 'published', true],
    ]);
  });

  it('delivers request.created for a draft made by a create and by a copy (ADR 3490)', async () => {
    const template = await publishedAgreement(acme);
    await subscribe('created', ['request.created']);
    const signerId = `made-${unique()}`;
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: { contracts: [template], signers: [{ signer_id: signerId }] },
      }),
      201,
      'create',
    );
    const copy = expectStatus(
      await acme.api.post<{ id: string }>(`/v1.1/requests/${created.id}/copy`, {}),
      201,
    ).body;
    const told = await eventually(() => {
      const mine = delivered.filter(
        (d) => d.type === 'request.created' && [created.id, copy.id].includes(d.data.request_id ?? ''),
      );
      return Promise.resolve(mine.length === 2 ? mine : undefined);
    });
    const byRequest = new Map(told.map((d) => [d.data.request_id, [d.site_id, d.data]]));
    assert.deepEqual(
      [created.id, copy.id].map((id) => byRequest.get(id)),
      [created.id, copy.id].map((id) => [
        acme.site,
        { request_id: id, state: 'draft', contracts: [template], signer_ids: [signerId] },
      ]),
    );
  });

  it('delivers request.signer_added and request.signer_removed for a draft’s signers (ADR 3280)', async () => {
    const template = await publishedAgreement(acme);
    await subscribe('draft-signers', ['request.signer_added', 'request.signer_removed']);
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: { contracts: [template], signers: [{ signer_id: `kept-${unique()}` }] },
      }),
      201,
      'create',
    );
    const added = `added-${unique()}@example.com`;
    const view = expectStatus(
      await acme.api.post<{ signers: { signer_ref: string }[] }>(`/v1.1/requests/${created.id}/signers`, {
        signer_id: added,
        send_to: { email: true },
      }),
      201,
    ).body;
    expectStatus(await acme.api.call('DELETE', `/v1.1/requests/${created.id}/signers/${added}`), 200);
    const of = (type: string) =>
      eventually(() =>
        Promise.resolve(delivered.find((d) => d.type === type && d.data.request_id === created.id)),
      );
    const ref = view.signers[1]!.signer_ref;
    assert.deepEqual((await of('request.signer_added')).data, {
      request_id: created.id,
      signer_id: added,
      signer_ref: ref,
      email: added,
      mobile_number: null,
      send_to: { email: true, mobile_number: false },
    });
    assert.deepEqual((await of('request.signer_removed')).data, {
      request_id: created.id,
      signer_id: added,
      signer_ref: ref,
      unassigned_fields: [],
    });
  });

  it('delivers request.signer_updated when the sender corrects a signer, without any link (ADR 3140)', async () => {
    const template = await publishedAgreement(acme);
    await subscribe('corrections', ['request.signer_updated']);
    const id = await sendOne(template);
    const mobile = uniqueMobile();
    const view = expectStatus(
      await acme.api.get<{
        signers: { signer_id: string; signer_ref: string; mobile_number: string | null }[];
      }>(`/v1.1/requests/${id}`),
      200,
    ).body;
    const texted = view.signers.find((s) => s.mobile_number !== null)!;
    expectStatus(
      await acme.api.call('PATCH', `/v1.1/requests/${id}/signers/${texted.signer_id}`, {
        signer: { mobile_number: mobile },
        notify: false,
      }),
      200,
    );
    const update = await eventually(() =>
      Promise.resolve(delivered.find((d) => d.type === 'request.signer_updated' && d.data.request_id === id)),
    );
    assert.deepEqual(update.data, {
      request_id: id,
      signer_id: texted.signer_id,
      signer_ref: texted.signer_ref,
      email: null,
      mobile_number: `1${mobile}`,
      send_to: { email: false, mobile_number: true },
      previous: {
        email: null,
        mobile_number: texted.mobile_number,
        send_to: { email: false, mobile_number: true },
      },
      corrected_by: acme.tenant.user.email,
      link_replaced: true,
      changed: ['mobile_number'],
    });
  });

  it('keeps in the Request’s history the very events its webhooks delivered, oldest first (ADR 3170)', async () => {
    const template = await publishedAgreement(acme);
    await subscribe('history', ['request.updated', 'request.cancelled']);
    const id = await sendOne(template);
    expectStatus(await acme.api.call('PATCH', `/v1.1/requests/${id}`, { reminder_interval_days: 2 }), 200);
    expectStatus(await acme.api.post(`/v1.1/requests/${id}/cancel`), 200);
    const history = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/events', { params: { path: { request_id: id } } }),
      200,
      'history',
    );
    assert.deepEqual(
      history.data.map((e) => e.type),
      ['request.sent', 'request.updated', 'request.cancelled'],
    );
    const newestFirst = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/events', {
        params: { path: { request_id: id }, query: { order: 'desc', per_page: 2 } },
      }),
      200,
      'history, newest first',
    );
    assert.deepEqual(
      newestFirst.data.map((e) => e.type),
      ['request.cancelled', 'request.updated'],
    );
    // Each entry is byte for byte what an endpoint subscribed to it received (the same id).
    for (const entry of history.data.slice(1)) {
      const received = await eventually(() => Promise.resolve(delivered.find((d) => d.id === entry.id)));
      assert.deepEqual(received, entry);
    }
  });

  it('delivers request.delivery_failed when a signer’s e-mail is refused, and keeps it in the history (ADR 3180)', async () => {
    const template = await publishedAgreement(acme);
    await subscribe('bounces', ['request.delivery_failed']);
    const gone = `gone-${unique()}@example.com`;
    system.smtp.refuseRecipient(gone, 550, '5.1.1 No such user here');
    const created = await sentAgreement(acme, template, gone);
    const received = await eventually(() =>
      Promise.resolve(
        delivered.find((d) => d.type === 'request.delivery_failed' && d.data.request_id === created.id),
      ),
    );
    const signer = created.signers[0]!;
    assert.deepEqual(
      { ...received.data, error: undefined, failed_at: undefined },
      {
        request_id: created.id,
        signer_id: signer.signer_id,
        signer_ref: signer.signer_ref,
        channel: 'email',
        status: 'failed',
        error: undefined,
        failed_at: undefined,
        to: gone,
      },
    );
    assert.match((received.data as { error: string }).error, /550 5\.1\.1 No such user here/);
    // The signer's status says the same, and the history holds the very body delivered.
    const request = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: created.id } } }),
      200,
      'get',
    );
    assert.equal(request.signers[0]!.notifications.email, 'failed');
    const history = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/events', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'history',
    );
    assert.deepEqual(
      history.data.find((e) => e.type === 'request.delivery_failed'),
      received,
    );
  });
});
