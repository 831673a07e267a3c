/**
 * What the notifier's benches share: a notifier on a fresh database and AMQP prefix, a
 * confirm channel to publish on, the latency percentiles, and the clean-up after.
 */
import amqplib from 'amqplib';
import { consumerQueues, topologyNames } from '@esign/platform/messaging';
import {
  amqpPrefix,
  createTestDatabase,
  deleteAmqpObjects,
  infra,
  percentile,
  testGatewayKeys,
  testLogger,
  useLocalServers,
} from '@esign/testing';
import { parseConfig } from '../src/config.js';
import { startNotifierService } from '../src/service.js';
import { CONSUMER_NAME } from '../src/adapters/amqp/notification-consumer.js';
import { WEBHOOK_CONSUMER_NAME } from '../src/adapters/amqp/webhook-event-consumer.js';

useLocalServers();

/** Starts a notifier named `name` with the bench's `settings` over the test defaults. */
export const startBench = async (name: string, settings: Record<string, string>) => {
  const database = await createTestDatabase(`${name.replace(/-/g, '_')}_bench`);
  const prefix = amqpPrefix(`${name}-bench`);
  const notifier = await startNotifierService(
    parseConfig({
      DATABASE_URL: database.url,
      AMQP_URL: infra().amqpUrl,
      AMQP_PREFIX: prefix,
      PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
      KEY_ENCRYPTION_KEYS: 'k1:a-test-key-encryption-secret-of-32-characters',
      ...settings,
    }),
    testLogger(`${name}-bench`),
  );
  const connection = await amqplib.connect(infra().amqpUrl);
  const channel = await connection.createConfirmChannel();
  const names = topologyNames(prefix);
  return {
    notifier,
    channel,
    names,
    /** Closes the connection, runs the notifier's stop steps, deletes its queues and database. */
    stop: async () => {
      await connection.close();
      for (const step of notifier.steps) await step.run();
      const queues = [CONSUMER_NAME, WEBHOOK_CONSUMER_NAME].flatMap((consumer) => {
        const q = consumerQueues(prefix, consumer, 5);
        return [q.main, q.parked, ...q.retries];
      });
      await deleteAmqpObjects({ queues, exchanges: [names.events, names.deadLetter] });
      await database.drop();
    },
  };
};

/** Waits while the notifier declares and binds its queues. */
export const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 500));

/** `p50 … ms, p99 … ms` of the latencies (milliseconds), sorted here. */
export const percentiles = (latencies: number[]): string => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `p50 ${Math.round(percentile(sorted, 50))} ms, p99 ${Math.round(percentile(sorted, 99))} ms`;
};
