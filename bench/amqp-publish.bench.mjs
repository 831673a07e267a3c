// Publishing over a confirm channel alone: CPU per message, the client's and the broker's,
// with the platform's `connectAmqp`, whose connection writes a turn's frames in one
// `writev` (ADR 2780), against amqplib's own connection, which writes each message on its
// own. Both publish the same messages the same way, in rounds of `batch` publishes made
// in one turn and one confirm wait, as the outbox relay's hand-off does under load.
// The two are alternated, `rounds` times. Run after a build, with RabbitMQ up:
//   node bench/amqp-publish.bench.mjs [batch=8] [messages=20000] [rounds=3]
import amqplib from 'amqplib';
import { pino } from 'pino';
import { connectAmqp } from '../libs/platform/dist/src/messaging.js';
import { commandCpuSeconds } from '@esign/testing';

const [batch = 8, count = 20000, rounds = 3] = process.argv.slice(2).map(Number);
const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

// The broker's CPU in ms, when it runs on this machine (its Erlang VM is `beam.smp`).
const brokerMs = () => commandCpuSeconds('beam.smp') * 1000;

const body = Buffer.from(
  JSON.stringify({ id: crypto.randomUUID(), type: 'request.created', data: { note: 'x'.repeat(300) } }),
);

/** Opens a connection either way and answers a `publish n` function and a `close`. */
const open = async (batched) => {
  let model;
  let client;
  if (batched) {
    const logger = pino({ level: 'silent', base: { service: 'amqp-publish-bench' } });
    client = await connectAmqp(url, logger, (m) => {
      model = m;
      return Promise.resolve();
    });
    while (!client.isConnected()) await new Promise((r) => setTimeout(r, 10));
  } else model = await amqplib.connect(url, { noDelay: true });
  const channel = await model.createConfirmChannel();
  const { queue } = await channel.assertQueue('', {
    exclusive: true,
    autoDelete: true,
    arguments: { 'x-max-length': 1000 },
  });
  const publish = async (n) => {
    for (let sent = 0; sent < n; sent += batch) {
      for (let i = 0; i < batch; i += 1)
        channel.publish('', queue, body, { persistent: true, contentType: 'application/json' });
      await channel.waitForConfirms();
    }
  };
  return { publish, close: () => (client ?? model).close() };
};

const measure = async (batched) => {
  const connection = await open(batched);
  await connection.publish(Math.min(count, 4000)); // warm-up: JIT, buffers
  const cpu = process.cpuUsage();
  const broker = brokerMs();
  const started = performance.now();
  await connection.publish(count);
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const brokerUsed = brokerMs() - broker;
  await connection.close();
  const perMessage = (us) => `${us.toFixed(1)} µs`;
  console.log(
    `  ${batched ? 'connectAmqp (batched)  ' : 'amqplib alone          '} client ${perMessage((used.user + used.system) / count)} (system ${perMessage(used.system / count)}), broker ${perMessage((brokerUsed * 1000) / count)}, ${Math.round((count / elapsed) * 1000)} messages/s`,
  );
};

console.log(`${count} publishes in rounds of ${batch} per turn and confirm wait, per message:`);
for (let round = 0; round < rounds; round += 1) {
  await measure(false);
  await measure(true);
}
