import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import type { AppState } from './http.js';
import { applyV8SettingsOrExit } from './v8-settings.js';
import { startMallocTrimmingOrExit } from './malloc-trim.js';
import { startMemoryReducerNudgingOrExit } from './memory-reducer.js';
import type { Logger } from './logger.js';
import { handleShutdown, listen, type ShutdownStep } from './lifecycle.js';

/**
 * Starts a service's HTTP server and arranges its graceful shutdown; `steps` run after
 * the server has drained (stop consumers, then close channels and pools).
 */
export const serve = async (options: {
  readonly app: Koa<AppState>;
  readonly port: number;
  readonly host?: string;
  readonly logger: Logger;
  readonly steps: readonly ShutdownStep[];
  readonly graceMs?: number;
  /** A second server for `/readyz` and `/metrics` (`createOpsApp`), drained with the first. */
  readonly ops?: { readonly app: Koa<AppState>; readonly port: number };
}): Promise<{ server: Server; shutdown: () => Promise<void> }> => {
  const serverOf = (app: Koa<AppState>) => {
    const created = createServer(app.callback());
    // Longer than a load balancer's idle timeout, so it never reuses a socket we just closed.
    created.keepAliveTimeout = 65_000;
    created.headersTimeout = 66_000;
    created.requestTimeout = 30_000;
    return created;
  };
  const server = serverOf(options.app);
  const ops = options.ops === undefined ? undefined : serverOf(options.ops.app);
  const shutdown = handleShutdown({
    logger: options.logger,
    servers: ops === undefined ? [server] : [server, ops],
    steps: options.steps,
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
  });
  await listen(server, options.port, options.host);
  if (ops !== undefined) await listen(ops, options.ops!.port, options.host);
  options.logger.info({ port: options.port }, 'listening');
  if (options.ops !== undefined) options.logger.info({ port: options.ops.port }, 'operations port listening');
  // A buffered logger would hold this line back; start-up news should not wait.
  options.logger.flush();
  return { server, shutdown };
};

/**
 * Runs `main`, turning a start-up failure into one log line and exit code 1. The
 * V8 settings are applied first (`HEAP_GROWING_PERCENT`, `WASM_TIER_UP`,
 * `MAGLEV_INLINING`: ADRs 2600, 2630, 2840), then malloc trimming starts
 * (`MALLOC_TRIM_RISE_MB`: ADR 2750), and on Node 24 the memory reducer's nudge
 * (`V8_MEMORY_REDUCER_NUDGE`: ADR 2860).
 */
export const runMain = (logger: Logger, main: () => Promise<unknown>): void => {
  Promise.resolve()
    .then(() => {
      applyV8SettingsOrExit();
      startMallocTrimmingOrExit(logger);
      startMemoryReducerNudgingOrExit(logger);
      return main();
    })
    .catch((error: unknown) => {
      logger.fatal({ err: error }, 'start-up failed');
      process.exit(1);
    });
};
