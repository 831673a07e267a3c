/** Randomness the webhook use cases need, injectable so tests are deterministic. */
export interface WebhookRandom {
  /** A fresh signing secret (`whsec_…`). */
  readonly secret: () => string;
  /** A fresh UUID. */
  readonly uuid: () => string;
  /** A number in [0, 1) for back-off jitter. */
  readonly jitter: () => number;
}
