import type { ChannelModel } from 'amqplib';
import { eventually } from '@esign/testing';

/**
 * Waits until the notifier has declared `queue`. Each look is a passive check on a channel
 * of its own, which the broker closes when the queue is not there yet.
 */
export const untilQueueDeclared = (connection: ChannelModel, queue: string): Promise<true> =>
  eventually(async () => {
    const probe = await connection.createChannel();
    probe.on('error', () => undefined);
    try {
      await probe.checkQueue(queue);
      await probe.close();
      return true as const;
    } catch {
      return undefined;
    }
  }, 10_000);
