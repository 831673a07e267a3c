export * from './infra.js';
export * from './logger.js';
export * from './tcp-proxy.js';
export * from './system.js';
export * from './smtp-server.js';
export * from './twilio-api.js';
export * from './esign-system.js';
export * from './property.js';
