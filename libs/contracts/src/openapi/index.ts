export * from './json-schema.js';
export * from './operation.js';
export * from './problem-codes.js';
export * from './responses.js';
export * from './document.js';
export { WEBHOOK_EVENTS } from './webhook-events.js';
export { NoParameters } from './operations-requests.js';
export { ClientCredentialsRequest } from './operations-accounts.js';
export { SigningForm } from './operations-signing.js';
