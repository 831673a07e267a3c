/**
 * How time enters a service: the one `Clock` port. Use cases and adapters ask it rather
 * than `Date.now()`, so a test can stand still or jump (docs/ARCHITECTURE.md, "Rules").
 */
export interface Clock {
  readonly now: () => Date;
}

export const systemClock: Clock = { now: () => new Date() };
