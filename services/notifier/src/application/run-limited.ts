/** Runs `tasks` with at most `limit` in flight; answers their results in input order. */
export const runLimited = async <A>(tasks: ReadonlyArray<() => Promise<A>>, limit: number): Promise<A[]> => {
  const results = new Array<A>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return results;
};
