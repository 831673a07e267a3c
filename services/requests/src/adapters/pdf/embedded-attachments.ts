import type { PDFDocument } from '@cantoo/pdf-lib';
import type { ExecutedDocument } from '../../ports/pdf-renderer.js';

/**
 * The files signers signed with (ADR 3920), as the executed document's embedded files: a
 * PDF reader lists them beside the pages, and the seal covers them. Each under the name it
 * was uploaded with, unless another file has that name: then its field's name comes first,
 * so none hides another.
 */
export const embedAttachments = async (doc: PDFDocument, document: ExecutedDocument): Promise<void> => {
  const taken = new Set<string>();
  for (const file of document.attachments ?? []) {
    const name = taken.has(file.fileName) ? `${file.field} - ${file.fileName}` : file.fileName;
    taken.add(name);
    await doc.attach(file.content, name, {
      mimeType: file.contentType,
      description: `${file.field}, attached by ${file.signerId}`,
      creationDate: new Date(document.completedAt),
      modificationDate: new Date(document.completedAt),
    });
  }
};
