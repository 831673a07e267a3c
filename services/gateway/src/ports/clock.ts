/** Milliseconds since the epoch; injected so caches and buckets can be tested without waiting. */
export type Clock = () => number;
