import assert from 'node:assert/strict';
import { decodeFeedCursor, FEED_START } from '../../src/application/feed-cursor.js';
import { left, right } from '../support/builders.js';
import { caller, memoryLifecycle, SITE } from '../support/memory-lifecycle.js';

const FIRST = { page: 1, perPage: 20 };

/** ADRs 3170 and 3190 over in-memory ports: what a Request's history and a Site's feed answer. */
describe('requests use cases: a Request’s history (in-memory ports)', () => {
  it('lists the client events of a Request, oldest first, as webhooks carry them', async () => {
    const { cases, create, events } = await memoryLifecycle();
    const view = await create();
    assert.deepEqual(
      right(await cases.listRequestEvents({ caller, requestId: view.id, page: FIRST })()).data,
      [],
    );
    right(await cases.sendRequest({ caller, requestId: view.id })());
    right(await cases.cancelRequest({ caller, requestId: view.id })());
    const history = right(await cases.listRequestEvents({ caller, requestId: view.id, page: FIRST })());
    const written = events(view.id).filter((e) => e.type !== 'request.created');
    assert.deepEqual(
      history.data.map((e) => [e.id, e.type, e.created_at]),
      written.map((e) => [e.id, e.type, e.occurred_at]),
    );
    assert.deepEqual(
      history.data.map((e) => e.type),
      ['request.sent', 'request.cancelled'],
    );
    assert.ok(!JSON.stringify(history).includes('request_url'), 'no Execution URL');
    assert.deepEqual(
      { ...history, data: undefined },
      { page: 1, per_page: 20, count: 2, total_count: 2, has_more: false, data: undefined },
    );
    const second = right(
      await cases.listRequestEvents({ caller, requestId: view.id, page: { page: 1, perPage: 1 } })(),
    );
    assert.deepEqual(
      { ids: second.data.map((e) => e.id), more: second.has_more },
      { ids: [history.data[0]!.id], more: true },
    );
  });

  it('answers not found for a Request of a Site the caller does not reach', async () => {
    const { cases, create } = await memoryLifecycle();
    const view = await create();
    const stranger = { sub: 'v', sites: [{ id: 8, name: 'Globex' }] };
    assert.equal(
      left(await cases.listRequestEvents({ caller: stranger, requestId: view.id, page: FIRST })())._tag,
      'NotFound',
    );
  });

  it('orders newest first on request, the same entries reversed', async () => {
    const { cases, create } = await memoryLifecycle();
    const view = await create();
    right(await cases.sendRequest({ caller, requestId: view.id })());
    right(await cases.cancelRequest({ caller, requestId: view.id })());
    const oldest = right(await cases.listRequestEvents({ caller, requestId: view.id, page: FIRST })());
    const newest = right(
      await cases.listRequestEvents({ caller, requestId: view.id, page: FIRST, order: 'desc' })(),
    );
    assert.deepEqual(newest.data, [...oldest.data].reverse());
  });
});

describe('requests use cases: a Site’s event feed (ADR 3190, in-memory ports)', () => {
  it('follows every Request of the Site from a cursor, a page at a time, and says where to go on', async () => {
    const { cases, create } = await memoryLifecycle();
    const [one, two] = [await create(), await create()];
    right(await cases.sendRequest({ caller, requestId: one.id })());
    right(await cases.sendRequest({ caller, requestId: two.id })());
    const feed = (after = FEED_START, perPage = 20) =>
      cases.listSiteEvents({ caller, siteId: SITE.id, from: { order: 'asc', after }, perPage })();
    /** The position a cursor the feed answered holds. */
    const at = (cursor: string) => {
      const position = decodeFeedCursor(cursor);
      assert.ok(position, cursor);
      return position;
    };
    const all = right(await feed());
    assert.deepEqual(
      all.data.map((e) => [e.type, e.data.request_id]),
      [
        ['request.sent', one.id],
        ['request.sent', two.id],
      ],
    );
    assert.equal(all.has_more, false);
    const first = right(await feed(FEED_START, 1));
    assert.deepEqual([first.data.map((e) => e.id), first.has_more], [[all.data[0]!.id], true]);
    const next = at(first.next_after);
    assert.deepEqual(right(await feed(next)).data, [all.data[1]]);
    // Nothing new: the cursor it was given, to poll with.
    const end = right(await feed(at(all.next_after)));
    assert.deepEqual([end.data, end.next_after], [[], all.next_after]);
    right(await cases.cancelRequest({ caller, requestId: one.id })());
    assert.deepEqual(
      right(await feed(at(all.next_after))).data.map((e) => e.type),
      ['request.cancelled'],
    );
  });

  it('looks back newest first, a page at a time before a cursor, with the cursors both ways', async () => {
    const { cases, create } = await memoryLifecycle();
    const [one, two] = [await create(), await create()];
    right(await cases.sendRequest({ caller, requestId: one.id })());
    right(await cases.sendRequest({ caller, requestId: two.id })());
    right(await cases.cancelRequest({ caller, requestId: one.id })());
    const back = (before: string | null, perPage = 20, types?: readonly string[]) =>
      cases.listSiteEvents({
        caller,
        siteId: SITE.id,
        from: { order: 'desc', before: before === null ? undefined : decodeFeedCursor(before) },
        perPage,
        ...(types && { types }),
      })();
    const forward = (perPage: number) =>
      cases.listSiteEvents({ caller, siteId: SITE.id, from: { order: 'asc', after: FEED_START }, perPage })();
    const all = right(await forward(20));
    assert.equal(all.next_before, right(await forward(1)).next_after, 'oldest first: before the first entry');
    const newest = right(await back(null));
    assert.deepEqual(
      newest.data.map((e) => e.id),
      [...all.data].reverse().map((e) => e.id),
    );
    assert.equal(newest.next_after, all.next_after, 'poll on from the newest entry');
    const first = right(await back(null, 2));
    assert.deepEqual(
      [first.data.map((e) => e.type), first.has_more],
      [['request.cancelled', 'request.sent'], true],
    );
    const rest = right(await back(first.next_before, 2));
    assert.deepEqual([rest.data.map((e) => e.id), rest.has_more], [[all.data[0]!.id], false]);
    assert.equal(rest.next_before, all.next_before, 'the oldest entry: nothing before it');
    const none = right(await back(rest.next_before));
    assert.deepEqual([none.data, none.has_more, none.next_before], [[], false, null]);
    const sends = right(await back(null, 20, ['request.sent']));
    assert.deepEqual(
      sends.data.map((e) => e.data.request_id),
      [two.id, one.id],
    );
  });

  it('lists only the types asked for; with none left, the cursor passes what it read', async () => {
    const { cases, create } = await memoryLifecycle();
    const [one, two] = [await create(), await create()];
    right(await cases.sendRequest({ caller, requestId: one.id })());
    right(await cases.cancelRequest({ caller, requestId: one.id })());
    right(await cases.sendRequest({ caller, requestId: two.id })());
    const feed = (types: readonly string[] | undefined, perPage = 20) =>
      cases.listSiteEvents({
        caller,
        siteId: SITE.id,
        from: { order: 'asc', after: FEED_START },
        perPage,
        ...(types && { types }),
      })();
    const all = right(await feed(undefined));
    const cancelled = right(await feed(['request.cancelled']));
    assert.deepEqual(
      cancelled.data.map((e) => [e.type, e.data.request_id]),
      [['request.cancelled', one.id]],
    );
    assert.equal(cancelled.next_after, all.next_after, 'past the send read after it');
    const sends = right(await feed(['request.sent'], 1));
    assert.deepEqual([sends.data.map((e) => e.id), sends.has_more], [[all.data[0]!.id], true]);
    assert.notEqual(sends.next_after, all.next_after, 'more to come: at the last entry answered');
  });

  it('answers not found for a Site the caller does not reach', async () => {
    const { cases } = await memoryLifecycle();
    const stranger = { sub: 'v', sites: [{ id: 8, name: 'Globex' }] };
    assert.equal(
      left(
        await cases.listSiteEvents({
          caller: stranger,
          siteId: SITE.id,
          from: { order: 'asc', after: FEED_START },
          perPage: 20,
        })(),
      )._tag,
      'NotFound',
    );
  });
});
