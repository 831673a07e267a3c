import { topologyNames } from '@esign/platform/messaging';
import { deleteAmqpObjects } from './infra.js';

/**
 * Every queue the services declare, so a test run leaves nothing on the shared broker.
 * Deleting a queue that does not exist is not an error, so the list may be generous.
 */
const CONSUMERS = ['notifier', 'notifier-webhooks', 'requests.notification-outcomes'];
const MAX_RETRY_STEPS = 20;

/** Deletes the queues and exchanges the services declared under an AMQP prefix. */
export const deleteSystemAmqpObjects = (prefix: string): Promise<void> =>
  deleteAmqpObjects({
    queues: CONSUMERS.flatMap((consumer) => [
      `${prefix}.${consumer}`,
      `${prefix}.${consumer}.parked`,
      ...Array.from({ length: MAX_RETRY_STEPS }, (_, i) => `${prefix}.${consumer}.retry.${i + 1}`),
    ]),
    exchanges: Object.values(topologyNames(prefix)),
  });
