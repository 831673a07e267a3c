import type { PageOf, PageRequest } from '../ports/page.js';

/** The one shape of every list answer: `{ page, per_page, count, total_count, has_more, data }`. */
export const pageView = <A, V>(request: PageRequest, page: PageOf<A>, view: (a: A) => V) => ({
  page: request.page,
  per_page: request.perPage,
  count: page.items.length,
  total_count: page.total,
  has_more: (request.page - 1) * request.perPage + page.items.length < page.total,
  data: page.items.map(view),
});
