import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { tsaNonce } from '../../src/adapters/pdf/pades-sealer.js';

const run = promisify(execFile);

/**
 * The time-stamp query's nonce against OpenSSL, which reads it as an OpenSSL-based TSA
 * does. Random bytes taken as they come made 1 query in 256 unreadable ("illegal
 * padding": a 0x00 or 0xFF byte DER forbids) and half of them a negative nonce.
 */
describe('the TSA query nonce (RFC 3161)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsa-nonce-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const queryWith = (nonce: Uint8Array) =>
    Buffer.from(
      new pkijs.TimeStampReq({
        version: 1,
        messageImprint: new pkijs.MessageImprint({
          hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' }),
          hashedMessage: new asn1js.OctetString({ valueHex: createHash('sha256').update('x').digest() }),
        }),
        nonce: new asn1js.Integer({ valueHex: Uint8Array.from(nonce).buffer }),
        certReq: true,
      })
        .toSchema()
        .toBER(),
    );

  for (const random of ['007f112233445566', 'ff80112233445566', '8f7f112233445566', '0000000000000000']) {
    it(`is a positive INTEGER that OpenSSL reads, from random bytes ${random}`, async () => {
      const nonce = tsaNonce(Buffer.from(random, 'hex'));
      assert.equal(nonce.length, 8);
      assert.ok(nonce[0]! >= 0x01 && nonce[0]! <= 0x7f, `first byte ${nonce[0]}`);
      assert.deepEqual(Buffer.from(nonce.subarray(1)), Buffer.from(random, 'hex').subarray(1));
      const file = join(dir, `${random}.tsq`);
      await writeFile(file, queryWith(nonce));
      const { stdout } = await run('openssl', ['ts', '-query', '-in', file, '-text']);
      assert.match(stdout, /Nonce: 0x[0-9A-F]{16}$/m);
    });
  }
});
