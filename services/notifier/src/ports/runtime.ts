/** Time and identifiers, so use cases stay deterministic under test. */
export type { Clock } from '@esign/contracts';

export interface IdGenerator {
  /** A fresh UUID for an event envelope. */
  readonly eventId: () => string;
}
