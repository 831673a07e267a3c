import * as TE from 'fp-ts/lib/TaskEither.js';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { PdfRenderer } from '../../ports/pdf-renderer.js';
import { translatorOf, writeAudit, writeCover } from './audit-pages.js';
import { writeHtmlContract, writePdfContract } from './contract-pages.js';
import { embedFontSet } from './font-set.js';
import { fillPdf } from './fill-pdf-form.js';
import { Writer } from './text-layout.js';
import { markEveryPage } from './test-mark.js';
import { embedAttachments } from './embedded-attachments.js';

const PRODUCER = 'E-signature platform (requests service)';

/** The pdf-lib renderer: the template fill for signers, and the executed document. */
export const pdfLibRenderer: PdfRenderer = {
  prefill: (pdf, values) =>
    TE.rightTask(async () => {
      try {
        const filled = await fillPdf(
          {
            kind: 'pdf',
            id: 0,
            name: '',
            pdf,
            sha256: '',
            fields: values.map((v) => ({
              name: v.definition.name,
              definition: v.definition,
              value: v.value,
              signerId: null,
              signature: null,
            })),
          },
          false,
        );
        return filled.bytes;
      } catch {
        // The file as uploaded still shows the contract; the page lists the values beside it.
        return pdf;
      }
    }),
  executed: (document) =>
    TE.rightTask(async () => {
      const doc = await PDFDocument.create();
      const w = new Writer(doc, await embedFontSet(doc));
      const acts = document.signers.flatMap((s) => (s.act === null ? [] : [s.act]));
      const { t } = translatorOf(document);
      writeCover(w, document);
      for (const contract of document.contracts) {
        if (contract.kind === 'html') await writeHtmlContract(w, t, contract, acts);
        else await writePdfContract(w, t, contract);
      }
      await writeAudit(w, document);
      w.footer((page, pages) => t('contract.footer', { id: document.requestId, page, pages }));
      if (document.testMode === true) markEveryPage(doc, w.fonts.bold, t('contract.testMark'));
      const names = document.contracts.map((c) => c.name).join(', ');
      doc.setTitle(t('contract.title', { names }));
      doc.setLanguage(document.locale ?? 'en');
      doc.setSubject(t('contract.subject', { id: document.requestId, date: document.completedAt }));
      doc.setAuthor(document.siteName);
      doc.setKeywords(['executed', document.requestId, document.documentSha256]);
      doc.setProducer(PRODUCER);
      doc.setCreator(PRODUCER);
      doc.setCreationDate(new Date(document.completedAt));
      doc.setModificationDate(new Date(document.completedAt));
      await embedAttachments(doc, document);
      // A classic cross-reference table: the seal is appended to it as an incremental update.
      return doc.save({ useObjectStreams: false });
    }),
};
