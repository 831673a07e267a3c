// The rate-limit check alone: CPU and wall time per check, charged against Redis (ADR
// 0903) and against this process's own buckets (its fallback while Redis is away). Each
// is measured two ways: one check at a time, each waiting for its answer, as a gateway
// with little else to do makes them; and 16 made in one turn, as a busy gateway makes
// them. A check is a call's two buckets (the token's and the site's), as on every
// authenticated call. The four are alternated, `rounds` times; Redis' own CPU is printed
// beside the client's when it runs on this machine. Run after a build, with Redis up:
//   node bench/rate-limit.bench.mjs [checks=5000] [rounds=3]
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { memoryRateLimiter, redisRateLimiter, sharedRateLimiter } from '../libs/platform/dist/src/index.js';
import { commandCpuSeconds } from '@esign/testing';

const [checks = 5000, rounds = 3] = process.argv.slice(2).map(Number);
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keyPrefix = `bench:rate:${process.pid}:`;

const now = () => Date.now();
const logger = pino({ level: 'silent' });
// Far above what the bench charges: every check is allowed, as in `npm run bench`.
const policy = (name) => ({ name, quota: 100_000_000, windowSeconds: 60 });
const charges = [
  { policy: policy('token'), key: 'token-id' },
  { policy: policy('site'), key: '1' },
];

const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
await new Promise((resolve, reject) => {
  redis.once('ready', resolve);
  redis.once('error', reject);
});
const local = memoryRateLimiter({ now, maxBuckets: 1000 });
const shared = redisRateLimiter({ redis, keyPrefix, now });
const limiters = {
  Redis: sharedRateLimiter({ shared, available: () => Promise.resolve(true), local, replicas: 2, logger }),
  'own buckets': sharedRateLimiter({
    shared,
    available: () => Promise.resolve(false),
    local,
    replicas: 2,
    logger,
  }),
};

const redisMs = () => commandCpuSeconds('redis-server') * 1000;

/** `checks` checks, one at a time or 16 to a turn; answers µs per check. */
const run = async (limit, together) => {
  const cpu = process.cpuUsage();
  const server = redisMs();
  const started = performance.now();
  if (together) {
    for (let made = 0; made < checks; made += 16) {
      await Promise.all(Array.from({ length: 16 }, () => limit(charges)()));
    }
  } else {
    for (let made = 0; made < checks; made += 1) await limit(charges)();
  }
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    cpu: (used.user + used.system) / checks,
    system: used.system / checks,
    wall: (wall * 1000) / checks,
    server: ((redisMs() - server) * 1000) / checks,
  };
};

const us = (n) => `${n.toFixed(1).padStart(5)} µs`;
console.log(`${checks} checks of two buckets each, per check (client CPU, of it system; wall; Redis' CPU):`);
for (const limit of Object.values(limiters)) await run(limit, false); // warm-up: JIT, script loaded
for (let round = 0; round < rounds; round += 1) {
  for (const [name, limit] of Object.entries(limiters)) {
    for (const together of [false, true]) {
      const r = await run(limit, together);
      console.log(
        `  ${name.padEnd(11)} ${together ? '16 to a turn ' : 'one at a time'}  client ${us(r.cpu)} (system ${us(r.system)}), wall ${us(r.wall)}${name === 'Redis' ? `, Redis ${us(r.server)}` : ''}`,
      );
    }
  }
}
await redis.del(`${keyPrefix}token:token-id`, `${keyPrefix}site:1`);
redis.disconnect();
