import * as t from 'io-ts';

/** Query of every list endpoint. */
export const PageQuery = {
  page: t.string,
  per_page: t.string,
};

export const MAX_PER_PAGE = 100;

/** The one shape of every list answer. */
export const Page = <C extends t.Mixed>(item: C) =>
  t.type({
    page: t.number,
    per_page: t.number,
    count: t.number,
    total_count: t.number,
    has_more: t.boolean,
    data: t.array(item),
  });

/** Which page a client asked for: 1-based `page`, and `per_page` as `perPage`. */
export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

/** One page of items and how many there are in all: what a repository answers for a list. */
export interface PageOf<A> {
  readonly items: readonly A[];
  readonly total: number;
}

/** Builds the one list answer from a page of items, their total and how each is shown. */
export const pageView = <A, V>(request: PageRequest, result: PageOf<A>, view: (a: A) => V) => ({
  page: request.page,
  per_page: request.perPage,
  count: result.items.length,
  total_count: result.total,
  has_more: (request.page - 1) * request.perPage + result.items.length < result.total,
  data: result.items.map(view),
});
