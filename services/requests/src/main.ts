import {
  amqpReadiness,
  connectAmqp,
  createDatabasePool,
  createLogger,
  declareSharedTopology,
  migrate,
  postgresReadiness,
  runMain,
  serve,
} from '@esign/platform';
import { every } from './adapters/periodic.js';
import { purgeIdempotencyKeys } from './adapters/postgres/maintenance.js';
import { createRequestsApp } from './app.js';
import { loadConfig } from './config.js';
import { migrationsDir } from './migrate.js';

const config = loadConfig();
const logger = createLogger('requests', config.LOG_LEVEL);

runMain(logger, async () => {
  await migrate(config.DATABASE_URL, migrationsDir, logger);
  const pool = await createDatabasePool(config.DATABASE_URL);
  const amqp = await connectAmqp(config.AMQP_URL, logger, async (model) => {
    const channel = await model.createChannel();
    await declareSharedTopology(channel, config.AMQP_PREFIX);
    await channel.close();
  });
  const { app } = createRequestsApp({
    pool,
    logger,
    readiness: [postgresReadiness(pool), amqpReadiness(amqp)],
    publicBaseUrl: config.PUBLIC_BASE_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    signingKeys: config.URL_SIGNING_KEYS,
    idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
  });
  const purge = every('purge idempotency keys', 3_600_000, logger, async () => {
    const purged = await purgeIdempotencyKeys(pool, config.IDEMPOTENCY_RETENTION_HOURS);
    if (purged > 0) logger.info({ purged }, 'idempotency keys purged');
  });
  await serve({
    app,
    port: config.PORT,
    logger,
    steps: [
      { name: 'maintenance', run: () => purge.stop() },
      { name: 'amqp', run: () => amqp.close() },
      { name: 'postgres', run: () => pool.end() },
    ],
  });
});
