import { createHttpApp, createLogger, finishApp, runMain, serve } from '@esign/platform';
import { loadConfig } from './config.js';

const config = loadConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);

/** A downstream service is ready when its own /healthz answers. */
const upstream = (name: string, base: string) => ({
  name,
  check: async () => {
    const response = await fetch(new URL('/healthz', base), { signal: AbortSignal.timeout(1500) });
    if (!response.ok) throw new Error(`${name} answered ${response.status}`);
  },
});

runMain(logger, async () => {
  const { app, router } = createHttpApp({
    service: 'gateway',
    logger,
    readiness: [upstream('auth', config.AUTH_URL), upstream('requests', config.REQUESTS_URL)],
  });
  await serve({ app: finishApp(app, router), port: config.PORT, logger, steps: [] });
});
