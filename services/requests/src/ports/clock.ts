/** The current time as an ISO-8601 UTC string; a port so tests can stand still or jump. */
export interface Clock {
  readonly now: () => string;
}
