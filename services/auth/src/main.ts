import { createLogger, runMain, serve } from '@esign/platform';
import { loadConfig } from './config.js';
import { startAuthService } from './service.js';

const config = loadConfig();
// A line per call (the access log) written one by one costs a write each, a fifth of a
// busy service's CPU in `npm run bench`; batched, as the gateway does (ADR 404).
const logger = createLogger('auth', config.LOG_LEVEL, { bufferBytes: 8 * 1024 });

runMain(logger, async () => {
  const { app, steps } = await startAuthService(config, logger);
  await serve({ app, port: config.PORT, host: config.LISTEN_HOST, logger, steps });
});
