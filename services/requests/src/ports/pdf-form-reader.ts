import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { TemplateField } from '../domain/contract-template.js';

/** Reads the form fields of a PDF; answers why a file is not a usable PDF otherwise. */
export interface PdfFormReader {
  readonly readFields: (pdf: Uint8Array) => TE.TaskEither<string, readonly TemplateField[]>;
}
