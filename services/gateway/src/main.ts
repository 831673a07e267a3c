import { createLogger, runMain, serve } from '@esign/platform';
import { loadConfig } from './config.js';
import { startGatewayService } from './service.js';

const config = loadConfig();
// Every call writes an access-log line: batching them saves a write (and a thread-pool
// round trip) per call, about a quarter of the gateway's CPU per call (ADR 404).
const logger = createLogger('gateway', config.LOG_LEVEL, { bufferBytes: 8 * 1024 });

runMain(logger, async () => {
  const gateway = startGatewayService(config, logger);
  await serve({
    app: gateway.app,
    port: config.PORT,
    ops: { app: gateway.opsApp, port: config.OPS_PORT },
    logger,
    steps: [{ name: 'upstream pools', run: gateway.close }],
  });
});
