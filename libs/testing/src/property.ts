/**
 * Settings for fast-check properties: bounded by a run count, never by time (a loaded
 * machine must run the same cases, only slower), and from a fixed seed, so a failure
 * seen once is seen again. fast-check prints the seed and the shrunk path of a failure;
 * `PROPERTY_SEED=<seed>` replays it, or explores other cases when changed on purpose.
 */
export const DEFAULT_PROPERTY_SEED = 20_261_124;

export interface PropertyRuns {
  readonly numRuns: number;
  readonly seed: number;
}

export const propertyRuns = (numRuns: number): PropertyRuns => {
  const fromEnv = process.env.PROPERTY_SEED;
  const seed = fromEnv === undefined || fromEnv.trim() === '' ? DEFAULT_PROPERTY_SEED : Number(fromEnv);
  if (!Number.isSafeInteger(seed)) throw new Error(`PROPERTY_SEED must be an integer, not ${fromEnv}`);
  return { numRuns, seed };
};
