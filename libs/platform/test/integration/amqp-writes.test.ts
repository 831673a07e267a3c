import assert from 'node:assert/strict';
import type { Writable } from 'node:stream';
import type { ChannelModel, ConsumeMessage } from 'amqplib';
import { amqpSocketOf, connectAmqp, type AmqpClient } from '../../src/messaging.js';
import { eventually, infra, startTcpProxy, testLogger, type TcpProxy } from '@esign/testing';

/** Counts the system calls a socket's writes become: `_write` is one chunk, `_writev` many. */
const countWrites = (socket: Writable) => {
  const calls: number[] = [];
  const target = socket as Writable & {
    _write: (...args: unknown[]) => void;
    _writev?: (chunks: readonly unknown[], ...rest: unknown[]) => void;
  };
  const write = target._write.bind(target);
  const writev = target._writev?.bind(target);
  target._write = (...args: unknown[]) => {
    calls.push(1);
    write(...args);
  };
  if (writev !== undefined)
    target._writev = (chunks: readonly unknown[], ...rest: unknown[]) => {
      calls.push(chunks.length);
      writev(chunks, ...rest);
    };
  return calls;
};

describe('platform: a broker connection writes a turn’s frames in one writev (real RabbitMQ, ADR 2780)', function () {
  this.timeout(30_000);
  let client: AmqpClient | undefined;
  let proxy: TcpProxy | undefined;
  const models: ChannelModel[] = [];
  const connect = async (url = infra().amqpUrl) => {
    client = await connectAmqp(url, testLogger(), (model) => {
      models.push(model);
      return Promise.resolve();
    });
    await eventually(() => Promise.resolve(client?.isConnected() === true ? true : undefined));
    return models.at(-1)!;
  };
  afterEach(async () => {
    await client?.close();
    await proxy?.close();
    client = undefined;
    proxy = undefined;
    models.length = 0;
  });

  it('amqplib keeps its socket where amqpSocketOf looks (the version the lock file pins)', async () => {
    const model = await connect();
    const socket = amqpSocketOf(model);
    assert.ok(socket, 'connection.stream is a Writable');
    assert.equal(socket.writable, true);
  });

  it('twenty publishes made in one turn leave in one write, and all arrive in order', async () => {
    const model = await connect();
    const channel = await model.createConfirmChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    const calls = countWrites(amqpSocketOf(model)!);
    for (let n = 0; n < 20; n += 1) channel.sendToQueue(queue, Buffer.from(String(n)));
    await channel.waitForConfirms();
    assert.deepEqual(calls, [20], 'one writev of 20 frame sets');

    // The acks of twenty deliveries handled in one turn leave together too.
    const received: string[] = [];
    const delivered: ConsumeMessage[] = [];
    await channel.prefetch(20);
    await channel.consume(queue, (message) => {
      if (message !== null) delivered.push(message);
    });
    await eventually(() => Promise.resolve(delivered.length === 20 ? true : undefined));
    calls.length = 0;
    for (const message of delivered) {
      received.push(message.content.toString());
      channel.ack(message);
    }
    await eventually(() => Promise.resolve(calls.length > 0 ? true : undefined));
    assert.deepEqual(calls, [20], 'one writev of 20 acks');
    assert.deepEqual(
      received,
      Array.from({ length: 20 }, (_, n) => String(n)),
    );
    const check = await channel.checkQueue(queue);
    assert.equal(check.messageCount, 0, 'every ack reached the broker');
  });

  it('the connection made after a cut is batched too', async () => {
    proxy = await startTcpProxy(Number(new URL(infra().amqpUrl).port || 5672));
    const url = new URL(infra().amqpUrl);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const first = await connect(url.toString());
    const cut = proxy;
    cut.cut();
    await eventually(() => Promise.resolve(client?.isConnected() === false ? true : undefined));
    cut.restore();
    await eventually(() =>
      Promise.resolve(models.length === 2 && client?.isConnected() === true ? true : undefined),
    );
    const second = models[1]!;
    assert.notEqual(amqpSocketOf(second), amqpSocketOf(first));
    const channel = await second.createConfirmChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    const calls = countWrites(amqpSocketOf(second)!);
    for (let n = 0; n < 5; n += 1) channel.sendToQueue(queue, Buffer.from(String(n)));
    await channel.waitForConfirms();
    assert.deepEqual(calls, [5]);
  });
});
