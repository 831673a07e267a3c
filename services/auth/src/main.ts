import {
  amqpReadiness,
  connectAmqp,
  createDatabasePool,
  createHttpApp,
  createLogger,
  declareSharedTopology,
  finishApp,
  migrate,
  postgresReadiness,
  runMain,
  serve,
} from '@esign/platform';
import { loadConfig } from './config.js';
import { migrationsDir } from './migrate.js';

const config = loadConfig();
const logger = createLogger('auth', config.LOG_LEVEL);

runMain(logger, async () => {
  await migrate(config.DATABASE_URL, migrationsDir, logger);
  const pool = await createDatabasePool(config.DATABASE_URL);
  const amqp = await connectAmqp(config.AMQP_URL, logger, async (model) => {
    const channel = await model.createChannel();
    await declareSharedTopology(channel, config.AMQP_PREFIX);
    await channel.close();
  });
  const { app, router } = createHttpApp({
    service: 'auth',
    logger,
    readiness: [postgresReadiness(pool), amqpReadiness(amqp)],
  });
  await serve({
    app: finishApp(app, router),
    port: config.PORT,
    logger,
    steps: [
      { name: 'amqp', run: () => amqp.close() },
      { name: 'postgres', run: () => pool.end() },
    ],
  });
});
