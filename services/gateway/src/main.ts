import { createLogger, runMain, serve } from '@esign/platform';
import { loadConfig } from './config.js';
import { createGateway } from './gateway.js';

const config = loadConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);

runMain(logger, async () => {
  const gateway = createGateway(config, logger);
  await serve({
    app: gateway.app,
    port: config.PORT,
    logger,
    steps: [{ name: 'upstream pools', run: gateway.close }],
  });
});
