import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { PDFDocument } from '@cantoo/pdf-lib';
import { makeSealCertificate } from '@esign/platform';
import { inProcessOfItsOwn } from '@esign/testing';
import { sealerFromFiles, type SealFilesChange } from '../../src/adapters/pdf/sealer-from-files.js';

const run = promisify(execFile);

/** The seal's certificate and key as a deployment configures them: PEM files or PKCS#12, and the mistakes. */
describe('requests: the seal of executed documents, configured from files', function () {
  this.timeout(60_000);
  let dir: string;
  const ca = makeSealCertificate({ commonName: 'config test CA', ca: true });
  const leaf = makeSealCertificate({ commonName: 'config test seal', issuer: ca });
  const other = makeSealCertificate({ commonName: 'someone else' });

  const none = { certFile: '', keyFile: '', p12File: '', passphrase: '', tsaUrl: '' };
  const file = async (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };
  const sealAndCheck = async (sealer: ReturnType<typeof sealerFromFiles>, name: string) => {
    assert.ok(sealer !== null);
    const doc = await PDFDocument.create();
    doc.addPage().drawText('sealed');
    const sealed = await sealer.seal(await doc.save({ useObjectStreams: false }), {
      reason: 'test',
      signingTime: new Date(),
    })();
    assert.ok(E.isRight(sealed));
    const pdf = await file(`${name}.pdf`, Buffer.from(sealed.right.pdf));
    const { stdout } = await run('pdfsig', [pdf]);
    assert.match(stdout, /Signature is Valid/, stdout);
    assert.match(stdout, /Common Name: config test seal/, stdout);
    return sealed.right;
  };

  /** A key from `openssl genpkey` with `options` (space-separated), and a certificate it signs for itself. */
  const selfSigned = async (name: string, options: string) => {
    const keyFile = join(dir, `${name}-key.pem`);
    const certFile = join(dir, `${name}-cert.pem`);
    await run('openssl', ['genpkey', ...options.split(' '), '-out', keyFile]);
    const subject = '/CN=config test seal';
    await run('openssl', ['req', '-x509', '-key', keyFile, '-out', certFile, '-days', '1', '-subj', subject]);
    return { keyFile, certFile };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seal-config-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('is off when nothing is set', () => {
    assert.equal(sealerFromFiles(none), null);
  });

  it('seals with a PEM chain (issuer first, even) and key', async () => {
    const certFile = await file('chain.pem', ca.certPem + leaf.certPem);
    const keyFile = await file('key.pem', leaf.keyPem);
    await sealAndCheck(sealerFromFiles({ ...none, certFile, keyFile }), 'pem');
  });

  it('seals with a PKCS#12 file and its passphrase', async () => {
    const certFile = await file('leaf.pem', leaf.chainPem);
    const keyFile = await file('leaf-key.pem', leaf.keyPem);
    const p12File = join(dir, 'seal.p12');
    await run('openssl', [
      'pkcs12',
      '-export',
      '-in',
      certFile,
      '-inkey',
      keyFile,
      '-out',
      p12File,
      '-passout',
      'pass:p12 secret',
      // The classic PBE algorithms, as older tools write them (OpenSSL 3's defaults: below).
      '-keypbe',
      'PBE-SHA1-3DES',
      '-certpbe',
      'PBE-SHA1-3DES',
      '-macalg',
      'sha1',
    ]);
    await sealAndCheck(sealerFromFiles({ ...none, p12File, passphrase: 'p12 secret' }), 'p12');
    assert.throws(
      () => sealerFromFiles({ ...none, p12File, passphrase: 'wrong' }),
      /^Error: PDF_SIGNING_P12_FILE: /,
    );
  });

  it('seals with a PKCS#12 file as OpenSSL 3 writes it by default: RSA, EC (P-256, P-521) and three-prime RSA keys', async () => {
    // node-forge decrypts these files but reads neither EC keys and certificates nor
    // RSA keys of more than two primes; node:crypto reads the key and chain it decrypted.
    const keys = {
      rsa: '-algorithm RSA -pkeyopt rsa_keygen_bits:2048',
      ec: '-algorithm EC -pkeyopt ec_paramgen_curve:P-256',
      'ec-p521': '-algorithm EC -pkeyopt ec_paramgen_curve:P-521',
      'rsa-3-primes': '-algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_primes:3',
    };
    for (const [name, options] of Object.entries(keys)) {
      const { keyFile, certFile } = await selfSigned(name, options);
      const p12File = join(dir, `${name}.p12`);
      const files = ['-in', certFile, '-inkey', keyFile, '-out', p12File];
      await run('openssl', ['pkcs12', '-export', ...files, '-passout', 'pass:pw']);
      await sealAndCheck(sealerFromFiles({ ...none, p12File, passphrase: 'pw' }), `p12-${name}`);
    }
  });

  it('reads the files again when they are replaced, and keeps its certificate when the new ones cannot be read', async () => {
    const certFile = await file('rotating-chain.pem', leaf.chainPem);
    const keyFile = await file('rotating-key.pem', leaf.keyPem);
    const changes: SealFilesChange[] = [];
    const sealer = sealerFromFiles({ ...none, certFile, keyFile }, (change) => changes.push(change));
    const sha256Of = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
    /** Writes the files as a renewal does; their times move on, as a new Secret's do. */
    let later = Date.now() / 1000;
    const replace = async (chainPem: string, keyPem: string) => {
      later += 60;
      for (const [path, content] of [
        [certFile, chainPem],
        [keyFile, keyPem],
      ] as const) {
        await writeFile(path, content);
        await utimes(path, later, later);
      }
    };
    assert.equal((await sealAndCheck(sealer, 'rotating-1')).certificateSha256, sha256Of(leaf.certPem));

    const renewed = makeSealCertificate({ commonName: 'config test seal', issuer: ca, days: 90 });
    await replace(renewed.chainPem, renewed.keyPem);
    // The metric's scrape sees the new end before any seal.
    assert.equal(
      sealer?.validity?.notAfter.getTime(),
      Date.parse(new X509Certificate(renewed.certPem).validTo),
    );
    assert.equal((await sealAndCheck(sealer, 'rotating-2')).certificateSha256, sha256Of(renewed.certPem));
    assert.deepEqual(
      changes.map((c) => c._tag),
      ['Reloaded'],
    );

    await replace(renewed.chainPem, other.keyPem);
    assert.equal((await sealAndCheck(sealer, 'rotating-3')).certificateSha256, sha256Of(renewed.certPem));
    await sealAndCheck(sealer, 'rotating-4');
    assert.deepEqual(
      changes.map((c) => (c._tag === 'Refused' ? c.reason : c._tag)),
      ['Reloaded', 'PDF_SIGNING_CERT_FILE/PDF_SIGNING_KEY_FILE: no certificate matches the private key'],
    );
  });

  it('loads pkijs and @signpdf on the first seal, not with the sealer, and node-forge never for PEM (ADR 2720, 2730)', async () => {
    const certFile = await file('lazy-chain.pem', leaf.chainPem);
    const keyFile = await file('lazy-key.pem', leaf.keyPem);
    const doc = await PDFDocument.create();
    doc.addPage().drawText('sealed');
    const pdfFile = await file('lazy.pdf', Buffer.from(await doc.save({ useObjectStreams: false })));
    const module = JSON.stringify(
      fileURLToPath(new URL('../../src/adapters/pdf/sealer-from-files.ts', import.meta.url)),
    );
    const seen = await inProcessOfItsOwn(
      fileURLToPath(new URL('../..', import.meta.url)),
      ['pkijs', '@signpdf', 'node-forge'],
      `import { readFileSync } from 'node:fs';
      import { sealerFromFiles } from ${module};
      const sealer = sealerFromFiles({ certFile: ${JSON.stringify(certFile)}, keyFile: ${JSON.stringify(keyFile)},
        p12File: '', passphrase: '', tsaUrl: '' });
      const before = loaded();
      const sealed = await sealer.seal(readFileSync(${JSON.stringify(pdfFile)}), { reason: 'test', signingTime: new Date() })();
      console.log(JSON.stringify({ before, after: loaded(), sealed: sealed._tag }));`,
    );
    assert.deepEqual(seen, { before: [], after: ['pkijs', '@signpdf'], sealed: 'Right' });
  });

  it('refuses a half or contradictory configuration, an unreadable file and a key of another certificate, naming the variable', async () => {
    const certFile = await file('only-cert.pem', leaf.certPem);
    const otherKey = await file('other-key.pem', other.keyPem);
    assert.throws(
      () => sealerFromFiles({ ...none, certFile }),
      /PDF_SIGNING_CERT_FILE and PDF_SIGNING_KEY_FILE go together/,
    );
    assert.throws(
      () => sealerFromFiles({ ...none, certFile, keyFile: otherKey, p12File: certFile }),
      /PDF_SIGNING_P12_FILE: set it, or/,
    );
    assert.throws(
      () => sealerFromFiles({ ...none, certFile, keyFile: join(dir, 'missing.pem') }),
      /PDF_SIGNING_KEY_FILE: cannot read/,
    );
    assert.throws(
      () => sealerFromFiles({ ...none, certFile, keyFile: otherKey }),
      /PDF_SIGNING_CERT_FILE\/PDF_SIGNING_KEY_FILE: no certificate matches the private key/,
    );
    // WebCrypto signs on P-256, P-384 and P-521 only: another curve is refused at start, not at the first seal.
    const k1 = await selfSigned('k1', '-algorithm EC -pkeyopt ec_paramgen_curve:secp256k1');
    assert.throws(
      () => sealerFromFiles({ ...none, ...k1 }),
      /PDF_SIGNING_CERT_FILE\/PDF_SIGNING_KEY_FILE: the key is EC on secp256k1: use P-256, P-384 or P-521/,
    );
    const notPem = await file('not.pem', 'hello');
    assert.throws(
      () => sealerFromFiles({ ...none, certFile: notPem, keyFile: otherKey }),
      /no PEM certificate found/,
    );
  });
});
