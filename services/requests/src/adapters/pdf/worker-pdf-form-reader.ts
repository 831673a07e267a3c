import { Worker } from 'node:worker_threads';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import pLimit from 'p-limit';
import type { TemplateField } from '../../domain/contract-template.js';
import type { PdfFormReader, UnusablePdf } from '../../ports/pdf-form-reader.js';
import { PdfWorkerAnswer, type PdfWorkerInput } from './pdf-worker-protocol.js';

/** What reading one uploaded PDF may cost before it is refused. */
export interface PdfReadLimits {
  /** Wall time for one file, parse included; the thread is killed after it. */
  readonly timeoutMs: number;
  /** The worker's V8 heap (old generation). */
  readonly maxHeapMb: number;
  /** Bytes all of the file's streams may decode to, summed (the decompression-bomb cap). */
  readonly maxDecodedBytes: number;
  /** Files read at once; the others wait, so a burst of uploads cannot multiply the memory. */
  readonly concurrency: number;
}

export const DEFAULT_PDF_READ_LIMITS: PdfReadLimits = {
  timeoutMs: 30_000,
  maxHeapMb: 128,
  maxDecodedBytes: 64 * 1024 * 1024,
  concurrency: 2,
};

// From TypeScript sources (tests, tsx) the worker must register tsx itself: loader hooks
// given on the command line do not reach worker threads on Node 20. tsx is a development
// dependency: the built image runs the .js worker below and never loads it.
const TSX_API = 'tsx/esm/api';
const spawn = (input: PdfWorkerInput, limits: PdfReadLimits): Worker => {
  const resourceLimits = { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 16 };
  if (import.meta.url.endsWith('.ts')) {
    const entry = new URL('./pdf-form-worker.ts', import.meta.url).href;
    return new Worker(
      `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
      { eval: true, workerData: input, resourceLimits },
    );
  }
  return new Worker(new URL('./pdf-form-worker.js', import.meta.url), { workerData: input, resourceLimits });
};

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

const readInWorker = (
  pdf: Uint8Array,
  limits: PdfReadLimits,
): Promise<E.Either<string, readonly TemplateField[]>> =>
  new Promise((resolve) => {
    const worker = spawn({ pdf, maxDecodedBytes: limits.maxDecodedBytes }, limits);
    let settled = false;
    const settle = (outcome: E.Either<string, readonly TemplateField[]>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(E.left(`took longer than ${limits.timeoutMs / 1000} s to read: simplify or re-save the PDF`)),
      limits.timeoutMs,
    );
    worker.once('message', (message: unknown) => {
      const answer = PdfWorkerAnswer.decode(message);
      if (E.isLeft(answer)) return settle(E.left('is not a readable PDF'));
      const a = answer.right;
      if (a._tag === 'Fields') return settle(E.right(a.fields));
      settle(
        E.left(
          a.reason === 'too_large'
            ? `decompresses to more than ${megabytes(limits.maxDecodedBytes)} MB: a contract PDF's streams may hold at most that`
            : a.message,
        ),
      );
    });
    worker.once('error', (error: Error & { code?: string }) =>
      settle(
        E.left(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `needs more than ${limits.maxHeapMb} MB of memory to read: simplify or re-save the PDF`
            : 'is not a readable PDF',
        ),
      ),
    );
    worker.once('exit', () => settle(E.left('is not a readable PDF')));
  });

/**
 * Reads an uploaded PDF's form fields in a worker thread with a heap limit, a time limit and
 * a cap on decoded bytes (issue #18, HIGH 2): a decompression bomb or a pathological file
 * costs that thread, never the event loop that serves every tenant's signer pages.
 */
export const workerPdfFormReader = (limits: PdfReadLimits = DEFAULT_PDF_READ_LIMITS): PdfFormReader => {
  const gate = pLimit(limits.concurrency);
  return {
    readFields: (pdf) =>
      pipe(
        () => gate(() => readInWorker(pdf, limits)),
        TE.mapLeft((reason): UnusablePdf => ({ _tag: 'UnusablePdf', reason })),
      ),
  };
};
