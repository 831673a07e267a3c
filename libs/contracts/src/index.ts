export * from './decode.js';
export * from './primitives.js';
export * from './api.js';
export * from './problem.js';
export * from './events.js';
export * from './auth.js';
export * from './webhooks.js';
