import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import {
  DEFAULT_PDF_READ_LIMITS,
  workerPdfFormReader,
} from '../../src/adapters/pdf/worker-pdf-form-reader.js';
import { pdfWithFields } from '../support/harness.js';
import { pdfBomb } from '../support/pdf-bomb.js';

const bytes = async () => new Uint8Array(Buffer.from(await pdfWithFields(), 'base64'));

describe('HIGH 2: uploaded PDFs are read in a worker thread under limits', function () {
  // Threads start slowly on a busy machine (and compile TypeScript under tsx); nothing is timed.
  this.timeout(180_000);

  it('reads the form fields of an ordinary PDF', async () => {
    const fields = await workerPdfFormReader().readFields(await bytes())();
    assert.deepEqual(
      fields,
      E.right([
        { name: 'tenant', type: 'text', maxLength: 40 },
        { name: 'pets', type: 'checkbox' },
        { name: 'term', type: 'choice', options: ['12 months', '24 months'] },
      ]),
    );
  });

  it('refuses a decompression bomb at the decoded-size cap, naming the cap', async () => {
    const bomb = pdfBomb(100 * 1024 * 1024);
    assert.ok(bomb.length < 400 * 1024, `the bomb is small (${bomb.length} bytes)`);
    const verdict = await workerPdfFormReader().readFields(new Uint8Array(bomb))();
    assert.deepEqual(
      verdict,
      E.left({
        _tag: 'UnusablePdf',
        reason: "decompresses to more than 64 MB: a contract PDF's streams may hold at most that",
      }),
    );
  });

  it('reads a PDF whose streams decode within the cap', async () => {
    const verdict = await workerPdfFormReader().readFields(new Uint8Array(pdfBomb(1024 * 1024)))();
    assert.ok(E.isRight(verdict), JSON.stringify(verdict));
  });

  it('gives up on a file that takes longer than the time limit', async () => {
    // Starting a thread alone takes longer than a millisecond, however fast the machine.
    const reader = workerPdfFormReader({ ...DEFAULT_PDF_READ_LIMITS, timeoutMs: 1 });
    const verdict = await reader.readFields(await bytes())();
    assert.deepEqual(
      verdict,
      E.left({
        _tag: 'UnusablePdf',
        reason: 'took longer than 0.001 s to read: simplify or re-save the PDF',
      }),
    );
  });
});
