import { onFirstUse } from '@esign/platform';
import type { PdfRenderer } from '../../ports/pdf-renderer.js';

/**
 * The pdf-lib renderer, loaded on the first PDF it is asked for rather than at start:
 * pdf-lib and its fonts are the largest part of the service's resident memory (about
 * 37 MB), and creates, reads and sends never need them (ADR 2504). A failed load is
 * tried again on the next call.
 */
const renderer = onFirstUse(() => import('./pdf-lib-renderer.js').then((m) => m.pdfLibRenderer));

export const lazyPdfRenderer: PdfRenderer = {
  prefill: (pdf, values) => async () => (await renderer()).prefill(pdf, values)(),
  executed: (document) => async () => (await renderer()).executed(document)(),
};
