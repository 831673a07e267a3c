import assert from 'node:assert/strict';
import type { ChannelModel } from 'amqplib';
import { connectAmqp, type AmqpClient } from '../../src/messaging.js';
import { eventually, infra, startTcpProxy, testLogger, type TcpProxy } from '@esign/testing';

describe('platform: a broker connection lost while its setup runs is made again (real RabbitMQ)', function () {
  this.timeout(30_000);
  let client: AmqpClient | undefined;
  let proxy: TcpProxy | undefined;
  after(async () => {
    await client?.close();
    await proxy?.close();
  });

  it('hears the lost connection’s error, and runs the setup again on a new one', async () => {
    const broker = new URL(infra().amqpUrl);
    proxy = await startTcpProxy(Number(broker.port || 5672), broker.hostname);
    const url = new URL(infra().amqpUrl);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const setups: string[] = [];
    client = await connectAmqp(url.toString(), testLogger(), async (model: ChannelModel) => {
      if (setups.length === 0) {
        setups.push('cut');
        // The broker goes away in the middle of the first setup, as when it restarts;
        // amqplib listens for the connection's errors only once a setup has finished.
        proxy!.cut();
        proxy!.restore();
        await model.createChannel();
      }
      setups.push('set up');
    });
    await eventually(() => Promise.resolve(client?.isConnected() === true ? true : undefined));
    assert.deepEqual(setups, ['cut', 'set up']);
  });
});
