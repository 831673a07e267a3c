/** One page of `items`, as the Postgres lists answer it. */
export const page = <A>(items: A[], p: { page: number; perPage: number }) => ({
  items: items.slice((p.page - 1) * p.perPage, p.page * p.perPage),
  total: items.length,
});
