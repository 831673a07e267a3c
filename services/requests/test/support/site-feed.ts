import type { SiteEventFeed } from '@esign/contracts';
import { eventually } from '@esign/testing';
import { SITE_A } from './harness.js';
import type { HistoryContext } from './history-fixture.js';

/**
 * A Site's feed (ADR 3190) read over HTTP as `ctx`'s principal, for the feed's suites; `ctx`
 * is read when a call is made, once the suite's `before` has filled it in.
 */
export const feedReader = (ctx: HistoryContext) => {
  const feed = async (query = '', site = SITE_A.id): Promise<SiteEventFeed> =>
    (await ctx.h.http.get(`/v1.1/sites/${site}/events${query}`).set(ctx.headers).expect(200))
      .body as SiteEventFeed;
  const from = (cursor: string, more = '') => `?after=${encodeURIComponent(cursor)}${more}`;
  /** The cursor past everything the feed holds now. */
  const end = async () => {
    let page = await feed('?per_page=100');
    while (page.has_more) page = await feed(from(page.next_after, '&per_page=100'));
    return page.next_after;
  };
  /**
   * The cursor past everything the feed holds once `requestId`'s entries show: then every
   * change stored before them shows too (the feed holds back what another transaction on
   * the server, a parallel test's, may still precede).
   */
  const endWith = (requestId: string) =>
    eventually(async () => {
      let page = await feed('?per_page=100');
      let seen = page.data.some((e) => e.data.request_id === requestId);
      while (page.has_more) {
        page = await feed(from(page.next_after, '&per_page=100'));
        seen ||= page.data.some((e) => e.data.request_id === requestId);
      }
      return seen ? page.next_after : undefined;
    });
  /** What the feed holds after `cursor` once every change stored has settled. */
  const settled = (cursor: string, count: number) =>
    eventually(async () => {
      const page = await feed(from(cursor, '&per_page=100'));
      return page.data.length >= count ? page : undefined;
    });
  return { feed, from, end, endWith, settled };
};
