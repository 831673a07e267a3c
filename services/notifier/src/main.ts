import { createLogger, runMain, serve } from '@esign/platform';
import { loadConfig } from './config.js';
import { startNotifierService } from './service.js';

const config = loadConfig();
// A line per call (the access log) written one by one costs a write each, a fifth of a
// busy service's CPU in `npm run bench`; batched, as the gateway does (ADR 404).
const logger = createLogger('notifier', config.LOG_LEVEL, { bufferBytes: 8 * 1024 });

runMain(logger, async () => {
  const notifier = await startNotifierService(config, logger);
  await serve({
    app: notifier.app,
    port: config.PORT,
    host: config.LISTEN_HOST,
    logger,
    steps: notifier.steps,
  });
});
