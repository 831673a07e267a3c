import { PDFContext, decodePDFRawStream } from '@cantoo/pdf-lib';

/** Thrown when the streams of one file decode to more than the budget. */
export class DecodeBudgetExceeded extends Error {
  constructor(readonly limitBytes: number) {
    super(`PDF streams decode to more than ${limitBytes} bytes`);
  }
}

/**
 * Caps how many bytes pdf-lib may decode (Flate, LZW, run-length, ASCII filters) in this
 * thread, summed over every stream. pdf-lib has no such option: every decoder grows its
 * output through `DecodeStream.prototype.ensureBuffer`, which is not exported, so it is
 * reached through a decoder instance. Only ever installed inside the PDF worker thread,
 * one file per thread, so the running total is the file's.
 */
export const installDecodeBudget = (limitBytes: number): { readonly exceeded: () => boolean } => {
  const probe = decodePDFRawStream(PDFContext.create().flateStream(new Uint8Array(1)));
  const decodeStream = Object.getPrototypeOf(Object.getPrototypeOf(probe)) as {
    ensureBuffer?: (this: { buffer: Uint8Array }, requested: number) => Uint8Array;
  };
  const original = decodeStream.ensureBuffer;
  // A pdf-lib that no longer decodes this way must fail loudly, not run unbounded.
  if (typeof original !== 'function') throw new Error('pdf-lib DecodeStream.ensureBuffer not found');
  let total = 0;
  let exceeded = false;
  const refuse = () => {
    exceeded = true;
    throw new DecodeBudgetExceeded(limitBytes);
  };
  decodeStream.ensureBuffer = function (requested) {
    const before = this.buffer.byteLength;
    // Refused before allocating; then counted as allocated (buffers grow by doubling).
    if (exceeded || total + Math.max(0, requested - before) > limitBytes) refuse();
    const buffer = original.call(this, requested);
    total += buffer.byteLength - before;
    if (total > limitBytes) refuse();
    return buffer;
  };
  // pdf-lib skips objects it fails to parse, so the error may never reach the caller.
  return { exceeded: () => exceeded };
};
