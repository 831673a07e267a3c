import assert from 'node:assert/strict';
import type { SiteEventFeed } from '@esign/contracts';
import { eventually } from '@esign/testing';
import { htmlTemplateBody, publishedTemplate, SITE_A } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';
import { feedReader } from '../support/site-feed.js';

/**
 * ADR 3700 against real Postgres: a Site's feed holds its templates' events too, listed only
 * when `type` names them, and no Request's history lists them.
 */
describe('requests service: a Site’s template events in its feed (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, create } = historyFixture('site-feed-template-events');
  const sent = () => create(true);
  const { feed, from, end } = feedReader(ctx);

  it('lists the Site’s template events only when asked for by type, never in a Request’s history (ADR 3700)', async () => {
    const cursor = await end();
    const template = await publishedTemplate(ctx.h.http, SITE_A, htmlTemplateBody({ name: 'Feed' }));
    const made = await sent();
    const asked = '&type=contract.created,contract.published,request.sent&per_page=100';
    // This test's entries: the fixture's own template may be listed too, as the feed may
    // have held it back when the cursor was taken.
    const ours = (page: SiteEventFeed) =>
      page.data.filter((e) => e.data.contract_id === template || e.data.request_id === made.id);
    const listed = await eventually(async () => {
      const entries = ours(await feed(from(cursor, asked)));
      return entries.length >= 3 ? entries : undefined;
    });
    assert.deepEqual(
      listed.map((e) => [e.type, e.data.contract_id ?? e.data.request_id]),
      [
        ['contract.created', template],
        ['contract.published', template],
        ['request.sent', made.id],
      ],
    );
    // Each as its webhook carries it.
    assert.deepEqual(Object.keys(listed[1]!.data).sort(), [
      'archived_at',
      'contract_id',
      'name',
      'state',
      'type',
    ]);
    // Without type=, a poll sees the Requests' entries only, as before.
    const plain = await feed(from(cursor, '&per_page=100'));
    assert.deepEqual(
      plain.data.map((e) => [e.type, e.data.request_id]),
      [['request.sent', made.id]],
    );
    // A Request's history takes no template type.
    const refused = await ctx.h.http
      .get(`/v1.1/requests/${made.id}/events?type=contract.created`)
      .set(ctx.headers)
      .expect(400);
    assert.deepEqual(
      (refused.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['type'],
    );
  });
});
