/**
 * How time enters a service: the one `Clock` port. Use cases and adapters ask it rather
 * than `Date.now()`, so a test can stand still or jump (docs/ARCHITECTURE.md, "Rules").
 */
export interface Clock {
  readonly now: () => Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock's time as an ISO-8601 UTC string: how a domain that keeps timestamps as text reads it. */
export const isoNow = (clock: Clock): string => clock.now().toISOString();
