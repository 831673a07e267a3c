/** For a bench run by hand: the local Postgres and RabbitMQ unless DATABASE_URL / AMQP_URL name others. */
export const useLocalServers = (): void => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  process.env.AMQP_URL ??= 'amqp://guest:guest@127.0.0.1:5672';
};

/** The `p`th percentile (0 to 100) of samples sorted ascending. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
