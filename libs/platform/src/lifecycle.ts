import type { Server } from 'node:http';
import type { Logger } from './logger.js';

export interface ShutdownStep {
  readonly name: string;
  readonly run: () => Promise<void>;
}

/**
 * Graceful shutdown on SIGTERM/SIGINT: stop accepting connections, let in-flight
 * requests finish (up to `graceMs`), then run `steps` in order (stop consumers,
 * close channels and pools) and exit 0. A second signal exits at once.
 */
export const handleShutdown = (options: {
  readonly logger: Logger;
  readonly servers: readonly Server[];
  readonly steps: readonly ShutdownStep[];
  readonly graceMs?: number;
  readonly exit?: (code: number) => void;
}): (() => Promise<void>) => {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const graceMs = options.graceMs ?? 20_000;
  let stopping: Promise<void> | undefined;

  const shutdown = (): Promise<void> => {
    if (stopping !== undefined) return stopping;
    stopping = (async () => {
      options.logger.info('shutting down');
      let failed = false;
      await Promise.all(
        options.servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              const force = setTimeout(() => {
                options.logger.warn('grace period over; closing remaining connections');
                server.closeAllConnections();
              }, graceMs);
              force.unref();
              // Keep-alive sockets turn idle as their last response ends; close them as they do.
              const sweep = setInterval(() => server.closeIdleConnections(), 50);
              server.close(() => {
                clearTimeout(force);
                clearInterval(sweep);
                resolve();
              });
              server.closeIdleConnections();
            }),
        ),
      );
      for (const step of options.steps) {
        try {
          await step.run();
        } catch (error) {
          failed = true;
          options.logger.error({ err: error, step: step.name }, 'shutdown step failed');
        }
      }
      options.logger.info('stopped');
      exit(failed ? 1 : 0);
    })();
    return stopping;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping !== undefined) {
      options.logger.warn({ signal }, 'second signal; exiting now');
      exit(1);
      return;
    }
    options.logger.info({ signal }, 'signal received');
    void shutdown();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return shutdown;
};

/** Keeps a Node http server from holding keep-alive sockets open past shutdown. */
export const listen = (server: Server, port: number, host = '0.0.0.0'): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
