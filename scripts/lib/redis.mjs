// Redis holds the gateway's rate-limit buckets (docs/adr/0903). `npm start` and `npm test`
// start the machine's redis-server when nothing answers on the local default address,
// as CI's .ci/run does; a Redis elsewhere (REDIS_URL) is the operator's to run.
import { spawnSync } from 'node:child_process';
import net from 'node:net';

export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';

const answers = (url) =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

/** Resolves to undefined when Redis answers at `url`, else to a line saying what to do. */
export const ensureRedis = async (url = LOCAL_REDIS_URL) => {
  if (await answers(url)) return undefined;
  if (url === LOCAL_REDIS_URL) {
    // No persistence: buckets are worth nothing after a restart.
    const started = spawnSync(
      'redis-server',
      ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', ''],
      { stdio: 'ignore' },
    );
    if (started.error === undefined && started.status === 0) {
      for (let i = 0; i < 50; i++) {
        if (await answers(url)) return undefined;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  return `Redis is not reachable at ${new URL(url).host}: start it (redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "") or set REDIS_URL.`;
};
