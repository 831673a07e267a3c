import { createLogger, runMain, serve } from '@esign/platform';
import { loadConfig } from './config.js';
import { startRequestsService } from './service.js';

const config = loadConfig();
const logger = createLogger('requests', config.LOG_LEVEL);

runMain(logger, async () => {
  const { app, steps } = await startRequestsService(config, logger);
  await serve({ app, port: config.PORT, logger, steps });
});
