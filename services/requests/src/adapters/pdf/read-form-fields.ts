import * as E from 'fp-ts/lib/Either.js';
import { EncryptedPDFError, PDFDocument, type PDFField } from '@cantoo/pdf-lib';
import type { TemplateField } from '../../domain/contract-template.js';
import { pdfFormField } from './pdf-form-field.js';

/**
 * A PDF's own fields: no `date`, `date_signed`, `initials`, `full_name` or `attachment`,
 * which a template declares (ADRs 3570, 3580, 3900, 3910, 3920).
 */
type PdfTemplateField = Exclude<
  TemplateField,
  { readonly type: 'date' | 'date_signed' | 'initials' | 'full_name' | 'attachment' }
>;

const toTemplateField = (field: PDFField): PdfTemplateField | undefined => {
  const name = field.getName();
  const input = pdfFormField(field);
  switch (input?.kind) {
    case 'text':
      return { name, type: 'text', maxLength: input.field.getMaxLength() ?? null };
    case 'checkbox':
      return { name, type: 'checkbox' };
    case 'choice':
      return { name, type: 'choice', options: input.field.getOptions() };
    case 'signature':
      return { name, type: 'signature' };
    default:
      // Push buttons take no input.
      return undefined;
  }
};

/**
 * A PDF's AcroForm fields, read with pdf-lib (the maintained @cantoo fork), or why the file
 * is not a usable PDF. Runs inside the PDF worker (`pdf-form-worker.ts`), under its limits.
 */
export const readFormFields = async (pdf: Uint8Array): Promise<E.Either<string, PdfTemplateField[]>> => {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (error) {
    if (error instanceof EncryptedPDFError)
      return E.left('is an encrypted PDF: upload it without a password');
    return E.left('is not a readable PDF');
  }
  // pdf-lib parses leniently and fails only when a broken part is used.
  try {
    if (document.getPageCount() === 0) return E.left('is a PDF without pages');
    const fields = document
      .getForm()
      .getFields()
      .flatMap((f) => {
        const field = toTemplateField(f);
        return field === undefined ? [] : [field];
      });
    return E.right(fields);
  } catch {
    return E.left('is not a readable PDF');
  }
};
