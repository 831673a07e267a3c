// The Redis-backed limiter lives in @esign/platform, shared with the notifier (ADR 1320).
export { createRateLimiter, type RateLimiterHandle, type RateLimiterSettings } from '@esign/platform';
