export * from './infra.js';
export * from './logger.js';
