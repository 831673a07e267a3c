/**
 * `@esign/platform/database`: what a service with a Postgres database builds on (the pool
 * and its queries, migrations, outbox rows written in a transaction, `startService`).
 * Apart from the main entry so that a service without a database, the gateway, never
 * loads slonik and pg (ADR 2850).
 */
export * from './db.js';
export * from './migrate.js';
export * from './outbox-writes.js';
export * from './start-service.js';
