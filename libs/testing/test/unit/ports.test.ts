import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { freePort, listensOn } from '../../src/ports.js';

describe('testing: ports for the services a test starts', () => {
  it('hands out distinct bindable ports below the ephemeral range', async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    assert.equal(new Set(ports).size, 3);
    for (const port of ports) assert.ok(port >= 10_000 && port < 32_000, String(port));
  });

  it('tells whether a process holds the listening socket of a port', async function () {
    if (listensOn(process.pid, 1) === undefined) this.skip(); // no /proc here
    const port = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      assert.equal(listensOn(process.pid, port), true);
      // Another process does not hold it.
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
      try {
        assert.equal(listensOn(child.pid, port), false);
      } finally {
        child.kill();
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    assert.equal(listensOn(process.pid, port), false);
  });
});
