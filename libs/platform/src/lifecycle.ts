import type { Server } from 'node:http';
import type { Logger } from './logger.js';

export interface ShutdownStep {
  readonly name: string;
  readonly run: () => Promise<void>;
}

/** The least time a shutdown step gets, even when the steps' budget is spent. */
const MIN_STEP_MS = 250;

/** Resolves 'done' when `run` settles, 'timeout' after `ms`; a rejection passes through. */
const bounded = async (run: () => Promise<void>, ms: number): Promise<'done' | 'timeout'> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run().then(() => 'done' as const),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Graceful shutdown on SIGTERM/SIGINT: stop accepting connections, let in-flight
 * requests finish (up to `graceMs`), then run `steps` in order (stop consumers,
 * close channels and pools) and exit 0. A second signal exits at once.
 *
 * The steps share a budget (`stepsMs`, 4 s: what a pod's termination grace leaves after
 * its preStop pause and the drain, k8s/base). A step that outlives its share is logged by
 * name and left behind, the next one runs, and the process exits 1: a stuck broker or
 * pool never keeps a stopped service alive until something kills it.
 */
export const handleShutdown = (options: {
  readonly logger: Logger;
  readonly servers: readonly Server[];
  readonly steps: readonly ShutdownStep[];
  readonly graceMs?: number;
  readonly stepsMs?: number;
  readonly exit?: (code: number) => void;
}): (() => Promise<void>) => {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const graceMs = options.graceMs ?? 20_000;
  const stepsMs = options.stepsMs ?? 4_000;
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
      const deadline = Date.now() + stepsMs;
      for (const step of options.steps) {
        const allowedMs = Math.max(deadline - Date.now(), MIN_STEP_MS);
        try {
          if ((await bounded(step.run, allowedMs)) === 'timeout') {
            failed = true;
            options.logger.error(
              { step: step.name, allowedMs },
              'shutdown step timed out; going on without it',
            );
          }
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
