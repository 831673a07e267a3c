/** Time and identifiers, so use cases stay deterministic under test. */
export interface Clock {
  readonly now: () => Date;
}

export interface IdGenerator {
  /** A fresh UUID for an event envelope. */
  readonly eventId: () => string;
}
