import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { TemplateField } from '../domain/contract-template.js';

/** Why an uploaded file is not a usable PDF, said of the file ("is not a readable PDF"). */
export interface UnusablePdf {
  readonly _tag: 'UnusablePdf';
  readonly reason: string;
}

/** Reads the form fields of a PDF; answers why a file is not a usable PDF otherwise. */
export interface PdfFormReader {
  readonly readFields: (pdf: Uint8Array) => TE.TaskEither<UnusablePdf, readonly TemplateField[]>;
}
