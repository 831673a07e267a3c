import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readRawBody } from '@esign/platform';

const LIMIT = 16;

class TooLarge extends Error {}

/** A server that reads each body with a 16-byte limit and says what it got. */
const listening = async (): Promise<Server> => {
  const server = createServer((req, res) => {
    readRawBody(req, LIMIT, () => new TooLarge()).then(
      (body) => res.writeHead(200).end(`read ${body.toString('utf8')}`),
      (error: unknown) => res.writeHead(error instanceof TooLarge ? 413 : 500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
};

/** Posts `chunks`, with their length declared or (`chunked`) not. */
const post = (server: Server, chunks: readonly string[], chunked = false) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const length = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
    const req = request(
      {
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        headers: chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': length },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
      },
    );
    // A server that answers before reading everything may close first: the answer still counts.
    req.on('error', (error) => (error.message.includes('EPIPE') ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });

describe('platform: a body read whole, up to a limit', () => {
  let server: Server;
  before(async () => {
    server = await listening();
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads a body within the limit, declared or streamed', async () => {
    assert.deepEqual(await post(server, ['a=1&', 'b=2']), { status: 200, body: 'read a=1&b=2' });
    assert.deepEqual(await post(server, ['x'.repeat(LIMIT)], true), {
      status: 200,
      body: `read ${'x'.repeat(LIMIT)}`,
    });
  });

  it("throws the caller's own error for a body declared larger, or streamed past the limit", async () => {
    assert.equal((await post(server, ['x'.repeat(LIMIT + 1)])).status, 413);
    assert.equal((await post(server, ['x'.repeat(10), 'x'.repeat(10)], true)).status, 413);
  });
});
