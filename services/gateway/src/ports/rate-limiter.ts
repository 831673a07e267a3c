// The limiter is shared with the notifier's message quotas (ADR 1320), in @esign/platform.
export type { RateCharge, RateLimiter } from '@esign/platform';
