export * from './rate-limiter.js';
export * from './memory-rate-limiter.js';
export * from './redis-rate-limiter.js';
export * from './shared-rate-limiter.js';
export * from './create-rate-limiter.js';
