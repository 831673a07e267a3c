import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { SiteEventFeed } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { eventually } from '@esign/testing';
import { principal, SITE_A, SITE_B } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';
import { feedReader } from '../support/site-feed.js';

/**
 * ADR 3190 against real Postgres: a Site's event feed lists its Requests' history entries
 * after a cursor, in the order their changes were stored, and never lets a change that
 * commits late slip behind a cursor already answered.
 */
describe('requests service: a Site’s event feed (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, create } = historyFixture('site-event-feed', [SITE_A, SITE_B]);
  const sent = () => create(true);
  const { feed, from, end, endWith, settled } = feedReader(ctx);

  it('lists the Site’s entries after a cursor in the order stored, a page at a time', async () => {
    const cursor = await end();
    const first = await sent();
    const second = await sent();
    await ctx.h.http.post(`/v1.1/requests/${first.id}/cancel`).set(ctx.headers).expect(200);
    const all = await settled(cursor, 3);
    assert.deepEqual(
      all.data.map((e) => [e.type, e.data.request_id]),
      [
        ['request.sent', first.id],
        ['request.sent', second.id],
        ['request.cancelled', first.id],
      ],
    );
    assert.equal(all.has_more, false);
    // Each entry is the Request's own history entry, the same body.
    const history = (await ctx.h.http.get(`/v1.1/requests/${first.id}/events`).set(ctx.headers).expect(200))
      .body as {
      data: unknown[];
    };
    assert.deepEqual(history.data, [all.data[0], all.data[2]]);
    // A page at a time: each next_after goes on from the last entry answered.
    const one = await feed(from(cursor, '&per_page=1'));
    assert.deepEqual([one.data.map((e) => e.id), one.has_more], [[all.data[0]!.id], true]);
    const rest = await feed(from(one.next_after, '&per_page=2'));
    assert.deepEqual(
      [rest.data.map((e) => e.id), rest.has_more],
      [[all.data[1]!.id, all.data[2]!.id], false],
    );
    // Nothing new: the same cursor again, to poll with.
    const none = await feed(from(rest.next_after));
    assert.deepEqual([none.data, none.has_more, none.next_after], [[], false, rest.next_after]);
    // Another Site's feed holds none of them.
    const other = await feed('?per_page=100', SITE_B.id);
    assert.ok(other.data.every((e) => e.site_id === SITE_B.id));
  });

  it('looks back newest first before a cursor; its next_after polls on from the newest entry', async () => {
    const cursor = await end();
    const first = await sent();
    const second = await sent();
    await ctx.h.http.post(`/v1.1/requests/${first.id}/cancel`).set(ctx.headers).expect(200);
    const all = await settled(cursor, 3);
    const ids = (page: SiteEventFeed) => page.data.map((e) => e.id);
    const back = (query: string) => feed(`?order=desc${query}`);
    const top = await back('&per_page=2');
    assert.deepEqual([ids(top), top.has_more], [[all.data[2]!.id, all.data[1]!.id], true]);
    assert.equal(top.next_after, all.next_after, 'polling on from the look back starts after the newest');
    const older = await back(`&before=${encodeURIComponent(top.next_before!)}&per_page=1`);
    assert.deepEqual(ids(older), [all.data[0]!.id]);
    assert.equal(older.next_before, all.next_before, 'oldest first, next_before is the first entry answered');
    assert.deepEqual(
      (await back(`&type=request.sent&per_page=2`)).data.map((e) => e.data.request_id),
      [second.id, first.id],
    );
    // Each cursor reads one way only; an order is asc or desc.
    const refusal = async (query: string) => {
      const answer = await ctx.h.http
        .get(`/v1.1/sites/${SITE_A.id}/events?${query}`)
        .set(ctx.headers)
        .expect(400);
      return (answer.body as { errors: unknown[] }).errors;
    };
    const token = encodeURIComponent(all.next_after);
    assert.deepEqual(await refusal(`order=desc&after=${token}`), [
      { path: 'after', message: 'reads oldest first: not with order=desc (use before)' },
    ]);
    assert.deepEqual(await refusal(`before=${token}`), [
      { path: 'before', message: 'reads newest first: only with order=desc' },
    ]);
    assert.deepEqual(await refusal('order=desc&before=nope'), [
      { path: 'before', message: 'must be a next_before this API answered' },
    ]);
    assert.deepEqual(await refusal('order=sideways'), [
      { path: 'order', message: 'must be "asc" or "desc"' },
    ]);
  });

  it('lists only the types asked for, and its cursor passes the entries of other types it read', async () => {
    const cursor = await end();
    const first = await sent();
    const second = await sent();
    await ctx.h.http.post(`/v1.1/requests/${first.id}/cancel`).set(ctx.headers).expect(200);
    const all = await settled(cursor, 3);
    const cancelled = await feed(from(cursor, '&type=request.cancelled'));
    assert.deepEqual(
      cancelled.data.map((e) => [e.type, e.data.request_id]),
      [['request.cancelled', first.id]],
    );
    assert.equal(cancelled.has_more, false);
    assert.equal(cancelled.next_after, all.next_after, 'past the sends it read, not only the cancel');
    // Comma-separated or repeated, the same; a page at a time stops at the last entry answered.
    const both = await feed(from(cursor, '&type=request.sent&type=request.cancelled'));
    assert.deepEqual(both, await feed(from(cursor, '&type=request.cancelled,request.sent')));
    assert.deepEqual(both, all);
    const one = await feed(from(cursor, '&type=request.sent&per_page=1'));
    assert.deepEqual([one.data.map((e) => e.id), one.has_more], [[all.data[0]!.id], true]);
    const rest = await feed(from(one.next_after, '&type=request.sent&per_page=1'));
    assert.deepEqual([rest.data.map((e) => e.id), rest.has_more], [[all.data[1]!.id], false]);
    assert.equal(rest.next_after, all.next_after);
    // Polling: nothing new, then only the new entry of that type.
    assert.deepEqual((await feed(from(cancelled.next_after, '&type=request.cancelled'))).data, []);
    await sent();
    await ctx.h.http.post(`/v1.1/requests/${second.id}/cancel`).set(ctx.headers).expect(200);
    const later = await eventually(async () => {
      const page = await feed(from(cancelled.next_after, '&type=request.cancelled'));
      return page.data.length > 0 ? page : undefined;
    });
    assert.deepEqual(
      later.data.map((e) => [e.type, e.data.request_id]),
      [['request.cancelled', second.id]],
    );
    // Only a history's types: bulk_send.completed is not one, and an empty list is none.
    for (const type of ['bulk_send.completed', '', 'request.sent,nope']) {
      const refused = await ctx.h.http
        .get(`/v1.1/sites/${SITE_A.id}/events?type=${encodeURIComponent(type)}`)
        .set(ctx.headers)
        .expect(400);
      const { errors } = refused.body as { errors: { path: string }[] };
      assert.deepEqual(
        errors.map((e) => e.path),
        ['type'],
      );
    }
  });

  it('holds an entry back while a change stored before it is still in flight, and never skips either', async () => {
    const held = await sent();
    const start = await endWith(held.id);
    let release!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (release = resolve));
    let inserted!: () => void;
    const begun = new Promise<void>((resolve) => (inserted = resolve));
    const late = {
      id: randomUUID(),
      type: 'request.expired',
      created_at: new Date().toISOString(),
      site_id: SITE_A.id,
    };
    // A transaction that stored an entry and has yet to commit: its id is older than
    // that of anything stored after it.
    const open = ctx.h.pool
      .transaction(async (tx) => {
        await tx.query(sql.unsafe`
          INSERT INTO request_events (request_id, site_id, payload)
          VALUES (${held.id}, ${SITE_A.id},
                  ${sql.jsonb({ ...late, data: { request_id: held.id, previous_state: 'sent' } })})`);
        inserted();
        if (!(await decided)) throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => error);
    await begun;
    const after1 = await sent();
    // The later change committed, but the feed does not pass the open one.
    const whileOpen = await feed(from(start, '&per_page=100'));
    assert.deepEqual(whileOpen.data, []);
    assert.equal(whileOpen.next_after, start);
    // Nor does a look back newest first: its next_after must not pass the open one either.
    const lookBack = await feed('?order=desc&per_page=1');
    assert.equal(lookBack.next_after, start);
    release(true);
    await open;
    const both = await settled(start, 2);
    assert.deepEqual(
      both.data.map((e) => e.id),
      [late.id, both.data[1]!.id],
    );
    assert.equal(both.data[1]!.data.request_id, after1.id);

    // A transaction that rolls back leaves nothing, and holds back nothing once it has.
    const next = both.next_after;
    let undo!: (commit: boolean) => void;
    const undecided = new Promise<boolean>((resolve) => (undo = resolve));
    let written!: () => void;
    const writing = new Promise<void>((resolve) => (written = resolve));
    const doomed = ctx.h.pool
      .transaction(async (tx) => {
        await tx.query(sql.unsafe`
          INSERT INTO request_events (request_id, site_id, payload)
          VALUES (${held.id}, ${SITE_A.id},
                  ${sql.jsonb({ ...late, id: randomUUID(), data: { request_id: held.id, previous_state: 'sent' } })})`);
        written();
        if (!(await undecided)) throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => error);
    await writing;
    const after2 = await sent();
    assert.deepEqual((await feed(from(next))).data, []);
    undo(false);
    assert.ok((await doomed) instanceof Error);
    const only = await settled(next, 1);
    assert.deepEqual(
      only.data.map((e) => [e.type, e.data.request_id]),
      [['request.sent', after2.id]],
    );
  });

  it('answers 404 for a Site the caller does not reach, and names what it cannot read', async () => {
    await ctx.h.http.get('/v1.1/sites/999/events').set(ctx.headers).expect(404);
    const onlyA = await principal([SITE_A]);
    await ctx.h.http.get(`/v1.1/sites/${SITE_B.id}/events`).set(onlyA).expect(404);
    const bad = await ctx.h.http
      .get(`/v1.1/sites/${SITE_A.id}/events?after=nope&page=2&per_page=0`)
      .set(ctx.headers)
      .expect(400);
    assert.deepEqual(bad.body.errors, [
      { path: 'page', message: 'unknown parameter' },
      { path: 'per_page', message: 'must be an integer from 1 to 100' },
      { path: 'after', message: 'must be a next_after this API answered' },
    ]);
    // A cursor is only what the API answered: not a position spelt another way.
    const forged = Buffer.from('00.1').toString('base64url');
    const refused = await ctx.h.http
      .get(`/v1.1/sites/${SITE_A.id}/events?after=${forged}`)
      .set(ctx.headers)
      .expect(400);
    assert.deepEqual(refused.body.errors, [
      { path: 'after', message: 'must be a next_after this API answered' },
    ]);
  });
});
