// A Site's event feed through the whole system (ADR 3190): a client without a webhook
// endpoint follows every Request of its Site with one cursor, through the gateway and the
// typed client, and sees only its own Site's events; a template's history is its entries of
// the feed (ADR 3720).
import assert from 'node:assert/strict';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import { clientOf, ok, publishedAgreement, sentAgreement, type ClientOf } from './support/flow.js';

describe('end to end through the gateway: a Site’s event feed (ADR 3190)', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let globex: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_event_feed' });
    acme = clientOf(system, await system.createTenant('Acme'));
    globex = clientOf(system, await system.createTenant('Globex'));
  });
  after(async () => {
    await system?.stop();
  });

  const sendOne = async (client: ClientOf, template: number) => (await sentAgreement(client, template)).id;
  const feed = async (client: ClientOf, after?: string, type?: string) =>
    ok(
      await client.esign.GET('/v1.1/sites/{site_id}/events', {
        params: {
          path: { site_id: client.site },
          query: { per_page: 100, ...(after && { after }), ...(type && { type }) },
        },
      }),
      200,
      'feed',
    );
  /** An entry's type and Request. */
  const what = (e: { type: string; data: object }) => [
    e.type,
    (e.data as { request_id?: string }).request_id,
  ];
  /** Follows the feed from `after` until it holds `count` entries more. */
  const follow = (client: ClientOf, after: string | undefined, count: number) =>
    eventually(async () => {
      const page = await feed(client, after);
      return page.data.length >= count ? page : undefined;
    });

  it('follows every Request of the Site with one cursor, and only that Site’s', async () => {
    const template = await publishedAgreement(acme);
    const first = await sendOne(acme, template);
    const second = await sendOne(acme, template);
    expectStatus(await acme.api.post(`/v1.1/requests/${first}/cancel`), 200);
    await sendOne(globex, await publishedAgreement(globex));

    const page = await follow(acme, undefined, 3);
    assert.deepEqual(page.data.map(what), [
      ['request.sent', first],
      ['request.sent', second],
      ['request.cancelled', first],
    ]);
    assert.ok(page.data.every((e) => e.site_id === acme.site));
    const history = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/events', { params: { path: { request_id: first } } }),
      200,
      'history',
    );
    assert.deepEqual(
      history.data,
      [page.data[0], page.data[2]],
      'the same entries as each Request’s history',
    );

    // Only the types asked for; the cursor passes what it read of the others.
    const cancelled = await feed(acme, undefined, 'request.cancelled,request.declined');
    assert.deepEqual(cancelled.data, [page.data[2]]);
    assert.equal(cancelled.next_after, page.next_after);

    // Polling with next_after: nothing, then only what came since.
    assert.deepEqual((await feed(acme, page.next_after)).data, []);
    const third = await sendOne(acme, template);
    const since = await follow(acme, page.next_after, 1);
    assert.deepEqual(since.data.map(what), [['request.sent', third]]);

    // Looking back: newest first, then older ones before each next_before.
    const back = async (query: { per_page: number; before?: string }) =>
      ok(
        await acme.esign.GET('/v1.1/sites/{site_id}/events', {
          params: { path: { site_id: acme.site }, query: { order: 'desc', ...query } },
        }),
        200,
        'look back',
      );
    const latest = await back({ per_page: 2 });
    assert.deepEqual(latest.data.map(what), [
      ['request.sent', third],
      ['request.cancelled', first],
    ]);
    assert.equal(latest.next_after, since.next_after, 'polling on starts after the newest');
    const older = await back({ per_page: 100, before: latest.next_before! });
    assert.deepEqual(older.data.map(what), [
      ['request.sent', second],
      ['request.sent', first],
    ]);
    assert.deepEqual([older.has_more, older.next_before], [false, page.next_before]);

    // Another Site's feed is not this token's to read, and a cursor is only one it was given.
    expectStatus(await acme.api.get(`/v1.1/sites/${globex.site}/events`), 404);
    const refused = await acme.api.get(`/v1.1/sites/${acme.site}/events?after=not-a-cursor`);
    expectStatus(refused, 400);
  });

  it('reads a template’s own history, as the feed lists its events (ADR 3720)', async () => {
    const template = await publishedAgreement(acme);
    const path = { contract_id: template };
    const history = ok(
      await acme.esign.GET('/v1.1/contracts/{contract_id}/events', { params: { path } }),
      200,
      'history',
    );
    assert.deepEqual(
      history.data.map((e) => e.type),
      ['contract.created', 'contract.published'],
    );
    const listed = await feed(acme, undefined, 'contract.created,contract.published');
    assert.deepEqual(
      listed.data.filter((e) => (e.data as { contract_id?: number }).contract_id === template),
      history.data,
      'the same entries as the Site’s feed',
    );
    expectStatus(await globex.api.get(`/v1.1/contracts/${template}/events`), 404);
  });
});
