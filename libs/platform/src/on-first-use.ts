/**
 * What `load` makes, made on the first call and kept for every later one; a failed load
 * is tried again on the next call. For modules a service needs rather late than at start,
 * since a module once imported stays in the heap for good (ADRs 2504, 2720, 2740): `load`
 * names the module in a literal `import()`, so the image's file tracer still follows it.
 */
export const onFirstUse = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
};
