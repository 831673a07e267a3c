/**
 * Runs `tasks` with at most `limit` in flight; answers their results in input order. When
 * some reject, every other task still runs to its end, then the first rejection is thrown.
 */
export const runLimited = async <A>(tasks: ReadonlyArray<() => Promise<A>>, limit: number): Promise<A[]> => {
  const results = new Array<A>(tasks.length);
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      try {
        results[index] = await tasks[index]!();
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
};
