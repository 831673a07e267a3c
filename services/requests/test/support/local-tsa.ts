import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** An RFC 3161 time-stamp authority on loopback: `openssl ts -reply` behind a tiny HTTP server. */
export interface LocalTsa {
  readonly url: string;
  /** Time-stamp queries answered so far. */
  readonly answered: () => number;
  /** From now on, answer 503 (an outage) instead of a token. */
  readonly fail: (failing: boolean) => void;
  readonly close: () => Promise<void>;
}

export const startLocalTsa = async (): Promise<LocalTsa> => {
  const dir = await mkdtemp(join(tmpdir(), 'tsa-'));
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    join(dir, 'tsa.key'),
    '-out',
    join(dir, 'tsa.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=esign test TSA',
    '-addext',
    'extendedKeyUsage=critical,timeStamping',
  ]);
  await writeFile(join(dir, 'serial'), '01\n');
  await writeFile(
    join(dir, 'tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = local',
      '[ local ]',
      `serial = ${join(dir, 'serial')}`,
      'crypto_device = builtin',
      `signer_cert = ${join(dir, 'tsa.crt')}`,
      `certs = ${join(dir, 'tsa.crt')}`,
      `signer_key = ${join(dir, 'tsa.key')}`,
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'other_policies = 1.2.3.4.2',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  let answered = 0;
  let failing = false;
  let queue = Promise.resolve();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failing || req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(failing ? 503 : 400).end();
        return;
      }
      // One openssl at a time: they share the serial file.
      queue = queue.then(async () => {
        const id = String(++answered);
        const query = join(dir, `${id}.tsq`);
        const reply = join(dir, `${id}.tsr`);
        try {
          await writeFile(query, Buffer.concat(chunks));
          await run('openssl', [
            'ts',
            '-reply',
            '-config',
            join(dir, 'tsa.cnf'),
            '-queryfile',
            query,
            '-out',
            reply,
          ]);
          res.writeHead(200, { 'Content-Type': 'application/timestamp-reply' }).end(await readFile(reply));
        } catch {
          res.writeHead(500).end();
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    answered: () => answered,
    fail: (f) => void (failing = f),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
};
