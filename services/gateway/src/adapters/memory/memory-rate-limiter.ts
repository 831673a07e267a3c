// The in-memory buckets live in @esign/platform, shared with the notifier (ADR 1320).
export { memoryRateLimiter } from '@esign/platform';
