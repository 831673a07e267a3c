import { parentPort, workerData } from 'node:worker_threads';
import * as E from 'fp-ts/lib/Either.js';
import { PdfWorkerInput, type PdfWorkerAnswer } from './pdf-worker-protocol.js';
import { DecodeBudgetExceeded, installDecodeBudget } from './decode-budget.js';
import { readFormFields } from './read-form-fields.js';

// One uploaded PDF per thread: the thread's limits and decode budget are the file's.
const input = PdfWorkerInput.decode(workerData);
if (E.isLeft(input)) throw new Error('pdf worker: malformed input');
const budget = installDecodeBudget(input.right.maxDecodedBytes);
const tooLarge: PdfWorkerAnswer = { _tag: 'Refused', reason: 'too_large', message: '' };

const answer = async (): Promise<PdfWorkerAnswer> => {
  try {
    const fields = await readFormFields(input.right.pdf);
    if (budget.exceeded()) return tooLarge;
    return E.isRight(fields)
      ? { _tag: 'Fields', fields: fields.right }
      : { _tag: 'Refused', reason: 'unreadable', message: fields.left };
  } catch (error) {
    if (error instanceof DecodeBudgetExceeded || budget.exceeded()) return tooLarge;
    return { _tag: 'Refused', reason: 'unreadable', message: 'is not a readable PDF' };
  }
};

parentPort?.postMessage(await answer());
