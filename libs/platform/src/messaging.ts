/**
 * `@esign/platform/messaging`: RabbitMQ (the connection, the outbox relay, event
 * consumers). Apart from the main entry and from `database`, so that a service without a
 * broker (the gateway, auth) never loads amqplib; `startService` loads it when a service
 * asks for messaging (ADR 2850).
 */
export * from './amqp.js';
export * from './outbox.js';
export * from './consumer.js';
