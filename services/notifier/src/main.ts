import { createLogger, runMain, serve } from '@esign/platform';
import { loadConfig } from './config.js';
import { startNotifier } from './notifier.js';

const config = loadConfig();
const logger = createLogger('notifier', config.LOG_LEVEL);

runMain(logger, async () => {
  const notifier = await startNotifier(config, logger);
  await serve({ app: notifier.app, port: config.PORT, logger, steps: notifier.steps });
});
