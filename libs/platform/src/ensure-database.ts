/**
 * Creating a service's database: `npm start`, `npm run migrate` and the tests need it, a
 * service never does. On its own, with pg only, so that `npm start`'s supervisor, which
 * stays up as long as the system does, does not load slonik (re-exported from db.ts).
 */
import pg from 'pg';

/** Creates the database named in `url` when it does not exist (for local start-up and tests). */
export const ensureDatabase = async (url: string): Promise<void> => {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } catch (error) {
        // Two processes may race to create it; the loser finds it made.
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
    }
  } finally {
    await client.end();
  }
};
