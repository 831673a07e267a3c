/**
 * The outbox relay's LISTEN connection (outbox.ts): a trigger NOTIFYs `outbox` at every
 * commit that wrote a row due at once, and the relay is woken. While the connection is
 * down the relay polls more often (ADR 2890), so it is woken when the connection is lost
 * as well as when it is back; it is made again a second later. A service's other workers
 * may listen on the same connection to channels of their own (ADR 2910): each is woken
 * by its channel's notifications, and like the relay when the connection is lost or back.
 */
import pg from 'pg';
import type { Logger } from './logger.js';

export interface CommitListener {
  /** Whether the LISTEN connection is up: a commit's row due at once wakes the relay. */
  readonly listening: () => boolean;
  /** Ends the connection and waits for the loop to finish. */
  readonly stop: () => Promise<void>;
}

export const listenForCommits = (options: {
  readonly databaseUrl: string;
  readonly log: Logger;
  readonly wake: () => void;
  /** More channels on the same connection, each with what its notifications wake. */
  readonly channels?: Readonly<Record<string, () => void>>;
}): CommitListener => {
  const { log } = options;
  const others = Object.entries(options.channels ?? {});
  const wake = () => {
    options.wake();
    for (const [, wakeOther] of others) wakeOther();
  };
  const notified = (channel: string) =>
    channel === 'outbox' ? options.wake() : options.channels?.[channel]?.();
  let stopped = false;
  let listener: pg.Client | undefined;
  const listening = (async () => {
    while (!stopped) {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      try {
        await client.connect();
        client.on('notification', (message) => notified(message.channel));
        await client.query('LISTEN outbox');
        for (const [channel] of others) await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
        // A stop that came while this connection was being made found no listener to end:
        // waiting here would never return, so the connection is ended below instead.
        if (!stopped) {
          listener = client;
          wake(); // anything committed while we were not listening
          await new Promise<void>((resolve) => {
            client.once('error', (error: Error) => {
              log.warn({ err: error.message }, 'outbox listener lost; polling until it is back');
              resolve();
            });
            client.once('end', () => resolve());
          });
        }
      } catch (error) {
        log.warn(
          { err: error instanceof Error ? error.message : error },
          'outbox listener could not connect',
        );
      }
      if (listener !== undefined) {
        listener = undefined;
        wake(); // to poll while it is down
      }
      await client.end().catch(() => undefined);
      if (!stopped) await new Promise((r) => setTimeout(r, 1_000));
    }
  })();
  return {
    listening: () => listener !== undefined,
    stop: async () => {
      stopped = true;
      await listener?.end().catch(() => undefined);
      await listening;
    },
  };
};
