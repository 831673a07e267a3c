import * as TE from 'fp-ts/lib/TaskEither.js';
import { translatorFor, type Translator } from '@esign/contracts';
import {
  PDFCheckBox,
  PDFDocument,
  PDFDropdown,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFTextField,
  type PDFField,
  type PDFImage,
  type PDFPage,
} from '@cantoo/pdf-lib';
import type { FieldValue, SignerAct } from '../../domain/signing.js';
import type {
  AuditSigner,
  ExecutedContract,
  ExecutedDocument,
  ExecutedField,
  PdfRenderer,
} from '../../ports/pdf-renderer.js';
import { htmlBlocks } from './html-blocks.js';
import { drawLine, embedFontSet, printable, type FontSet } from './font-set.js';
import { fitSize, SIGNATURE_INK, Writer } from './text-layout.js';
import { markEveryPage } from './test-mark.js';

const PRODUCER = 'E-signature platform (requests service)';

export const displayValue = (value: FieldValue | null): string =>
  value === null ? '(empty)' : value === true ? 'Yes' : value === false ? 'No' : value;

/** Sets one form field to a value; answers false when the PDF's field cannot take it. */
const setField = (field: PDFField, value: FieldValue): boolean => {
  try {
    if (field instanceof PDFTextField) field.setText(String(value));
    else if (field instanceof PDFCheckBox) {
      if (value === true) field.check();
      else field.uncheck();
    } else if (
      field instanceof PDFDropdown ||
      field instanceof PDFOptionList ||
      field instanceof PDFRadioGroup
    ) {
      if (typeof value !== 'string') return false;
      field.select(value);
    } else return false;
    return true;
  } catch {
    return false;
  }
};

/** The pages a field's widgets sit on, with their rectangles. */
const placements = (doc: PDFDocument, field: PDFField) =>
  field.acroField.getWidgets().flatMap((widget) => {
    const ref = doc.context.getObjectRef(widget.dict);
    const pageRef = widget.P();
    const page = doc
      .getPages()
      .find(
        (p) =>
          (pageRef !== undefined && p.ref === pageRef) ||
          (ref !== undefined && (p.node.Annots()?.asArray() ?? []).includes(ref)),
      );
    return page === undefined ? [] : [{ page, rect: widget.getRectangle() }];
  });

const drawSignatureIn = (
  page: PDFPage,
  rect: { x: number; y: number; width: number; height: number },
  act: SignerAct,
  fonts: FontSet,
  image: PDFImage | null,
) => {
  const name = printable(act.typedName ?? '');
  if (image !== null) {
    const scale = Math.min(rect.width / image.width, (rect.height * 0.65) / image.height);
    page.drawImage(image, {
      x: rect.x,
      y: rect.y + rect.height * 0.35,
      width: image.width * scale,
      height: image.height * scale,
    });
  }
  const size = fitSize(
    fonts,
    'signature',
    name,
    rect.width - 4,
    image === null ? rect.height * 0.7 : rect.height * 0.3,
  );
  drawLine(page, fonts, name, 'signature', { x: rect.x + 2, y: rect.y + 3, size, color: SIGNATURE_INK });
};

/** A PDF contract filled with its final values and signatures, flattened; its pages' bytes. */
const fillPdf = async (
  contract: Extract<ExecutedContract, { kind: 'pdf' }>,
  flatten: boolean,
): Promise<{ bytes: Uint8Array; unplaced: ExecutedField[] }> => {
  const doc = await PDFDocument.load(contract.pdf, { updateMetadata: false });
  const fonts = await embedFontSet(doc);
  const form = doc.getForm();
  const unplaced: ExecutedField[] = [];
  for (const field of contract.fields) {
    const target = form.getFieldMaybe(field.name);
    if (target === undefined) continue;
    if (field.definition.type === 'signature' || target instanceof PDFSignature) {
      const act = field.signature;
      if (act !== null) {
        const image = act.drawnSignature === null ? null : await embedPng(doc, act.drawnSignature);
        const spots = placements(doc, target);
        for (const spot of spots) drawSignatureIn(spot.page, spot.rect, act, fonts, image);
        if (spots.length === 0) unplaced.push(field);
      }
      // A signature field has no appearance to flatten; its drawing is on the page now.
      if (flatten) form.removeField(target);
      continue;
    }
    if (field.value !== null && !setField(target, field.value)) unplaced.push(field);
  }
  form.updateFieldAppearances(fonts.pdf.regular);
  if (flatten) form.flatten();
  return { bytes: await doc.save(), unplaced };
};

const embedPng = async (doc: PDFDocument, png: Uint8Array): Promise<PDFImage | null> => {
  try {
    return await doc.embedPng(png);
  } catch {
    return null;
  }
};

const signedCaption = (what: string, act: SignerAct): string =>
  `${what} · signed by ${act.signerId} on ${act.at}`;

const writeHtmlContract = async (
  w: Writer,
  contract: Extract<ExecutedContract, { kind: 'html' }>,
  acts: readonly SignerAct[],
) => {
  w.newPage();
  w.heading(contract.name, 1);
  w.plain(`Contract ${contract.id} · content SHA-256 ${contract.sha256}`, {
    size: 8,
    muted: true,
    after: 12,
  });
  for (const block of htmlBlocks(contract.html)) {
    const indent = block.depth * 14;
    switch (block.kind) {
      case 'heading':
        w.heading(
          block.runs
            .map((r) => r.text)
            .join('')
            .trim(),
          block.level + 1,
        );
        break;
      case 'rule':
        w.rule();
        break;
      case 'pre':
        w.text(block.runs, { indent, size: 9.5 });
        break;
      case 'item':
        w.text(trimRuns(block.runs), { indent, marker: block.marker, after: 3 });
        break;
      default:
        w.text(trimRuns(block.runs), { indent, after: 7 });
    }
  }
  const entries = contract.fields.filter((f) => f.definition.type !== 'signature');
  if (entries.length > 0) {
    w.heading('Completed fields', 2);
    for (const field of entries)
      w.pair(
        field.name,
        `${displayValue(field.value)}${field.signerId === null ? '' : `   (${field.signerId})`}`,
      );
  }
  const signatureFields = contract.fields.filter((f) => f.definition.type === 'signature');
  w.heading('Signatures', 2);
  const shown =
    signatureFields.length > 0
      ? signatureFields.map((f) => ({ what: f.name, act: f.signature }))
      : acts.filter((a) => a.kind === 'signed').map((act) => ({ what: 'Signature', act }));
  for (const { what, act } of shown) {
    if (act === null || act.typedName === null) {
      w.plain(`${what}: not signed`, { italic: true });
      continue;
    }
    const image = act.drawnSignature === null ? null : await embedPng(w.doc, act.drawnSignature);
    w.signature(act.typedName, image, signedCaption(what, act));
  }
};

const trimRuns = (runs: readonly { text: string; bold: boolean; italic: boolean }[]) =>
  runs.map((r, i) => ({
    ...r,
    text: i === 0 ? r.text.trimStart() : i === runs.length - 1 ? r.text.trimEnd() : r.text,
  }));

const writePdfContract = async (w: Writer, contract: Extract<ExecutedContract, { kind: 'pdf' }>) => {
  let filled: { bytes: Uint8Array; unplaced: ExecutedField[] };
  try {
    filled = await fillPdf(contract, true);
  } catch {
    // A form pdf-lib cannot flatten is kept as uploaded; every value goes on the page after it.
    filled = { bytes: contract.pdf, unplaced: [...contract.fields] };
  }
  const source = await PDFDocument.load(filled.bytes, { updateMetadata: false });
  const pages = await w.doc.copyPages(source, source.getPageIndices());
  for (const page of pages) w.doc.addPage(page);
  w.y = 0;
  if (filled.unplaced.length > 0) {
    w.newPage();
    w.heading(`${contract.name}: values`, 2);
    w.plain('These values could not be placed on the form of the PDF above; they are part of it.', {
      size: 9,
      muted: true,
    });
    for (const field of filled.unplaced)
      w.pair(
        field.name,
        field.definition.type === 'signature'
          ? `signed by ${field.signature?.signerId ?? '(nobody)'} as "${field.signature?.typedName ?? ''}"`
          : displayValue(field.value),
      );
  }
};

/** The cover and audit pages are written in the document's language (ADR 2320). */
const translatorOf = (document: ExecutedDocument): Translator => translatorFor(document.locale ?? 'en');

const writeAudit = async (w: Writer, document: ExecutedDocument) => {
  const { t } = translatorOf(document);
  w.newPage();
  // The sender's logo (branding, ADR 2301) above the trail; an unreadable one is left out.
  const logo = document.logoPng === undefined ? null : await embedPng(w.doc, document.logoPng);
  if (logo !== null) {
    const scale = Math.min(160 / logo.width, 40 / logo.height, 1);
    w.ensure(50);
    w.page.drawImage(logo, {
      x: 56,
      y: w.y - logo.height * scale,
      width: logo.width * scale,
      height: logo.height * scale,
    });
    w.y -= logo.height * scale + 10;
  }
  w.heading(t('audit.title'), 1);
  w.pair(t('audit.request'), document.requestId);
  w.pair(t('audit.sentBy'), document.siteName);
  w.pair(t('audit.created'), document.createdAt);
  w.pair(t('audit.sent'), document.sentAt ?? t('audit.notSent'));
  w.pair(t('audit.completed'), document.completedAt);
  w.pair(t('audit.documentSha256'), document.documentSha256);
  w.plain(t('audit.sha256Note'), { size: 8, muted: true, after: 8 });
  w.heading(t('audit.contracts'), 2);
  for (const c of document.contracts)
    w.pair(
      t('audit.contract', { name: c.name, kind: c.kind.toUpperCase(), id: c.id }),
      t('audit.contentSha256', { hash: c.sha256 }),
    );
  w.heading(t('audit.signers'), 2);
  for (const signer of document.signers) writeAuditSigner(w, signer, t);
};

const writeAuditSigner = (w: Writer, signer: AuditSigner, t: Translator['t']) => {
  w.heading(signer.signerId, 3);
  const act = signer.act;
  w.pair(t('audit.email'), signer.email ?? t('audit.none'), 10);
  w.pair(t('audit.mobile'), signer.mobileNumber ?? t('audit.none'), 10);
  if (signer.viewedAt !== undefined && signer.viewedAt !== null)
    w.pair(t('audit.firstOpened'), signer.viewedAt, 10);
  if (act === null) {
    w.pair(t('audit.action'), t('audit.noAction'), 10);
    return;
  }
  w.pair(t('audit.action'), act.kind === 'signed' ? t('audit.actionSigned') : t('audit.actionDeclined'), 10);
  if (act.typedName !== null)
    w.pair(
      t('audit.signedAs'),
      act.drawnSignature === null ? act.typedName : t('audit.typedAndDrawn', { name: act.typedName }),
      10,
    );
  if (act.reason !== null) w.pair(t('audit.reason'), act.reason, 10);
  if (act.authentication !== null)
    w.pair(
      t('audit.identityCheck'),
      t('audit.identityPassed', {
        method: t(`audit.method.${act.authentication.method}`),
        date: act.authentication.passedAt,
      }),
      10,
    );
  w.pair(t('audit.time'), act.at, 10);
  w.pair(t('audit.ip'), act.ip, 10);
  w.pair(t('audit.userAgent'), act.userAgent, 10);
  w.pair(t('audit.documentSha256'), act.documentSha256, 10);
  w.space(6);
};

const writeCover = (w: Writer, document: ExecutedDocument) => {
  const { t } = translatorOf(document);
  w.newPage();
  w.heading(t('audit.cover.title'), 1);
  w.plain(t('audit.cover.completed', { site: document.siteName, date: document.completedAt }), {
    muted: true,
    after: 10,
  });
  w.pair(t('audit.request'), document.requestId);
  w.heading(t('audit.contracts'), 2);
  document.contracts.forEach((c, i) => w.pair(String(i + 1), c.name));
  w.heading(t('audit.signedBy'), 2);
  for (const s of document.signers)
    w.pair(
      s.act?.typedName ?? s.signerId,
      `${s.signerId}${s.email !== null && s.email !== s.signerId ? ` <${s.email}>` : ''} · ${s.act?.at ?? ''}`,
    );
};

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
      writeCover(w, document);
      for (const contract of document.contracts) {
        if (contract.kind === 'html') await writeHtmlContract(w, contract, acts);
        else await writePdfContract(w, contract);
      }
      await writeAudit(w, document);
      w.footer(`Request ${document.requestId}`);
      if (document.testMode === true) markEveryPage(doc, w.fonts.bold);
      const names = document.contracts.map((c) => c.name).join(', ');
      doc.setTitle(`Executed: ${names}`);
      doc.setLanguage(document.locale ?? 'en');
      doc.setSubject(`Request ${document.requestId}, completed ${document.completedAt}`);
      doc.setAuthor(document.siteName);
      doc.setKeywords(['executed', document.requestId, document.documentSha256]);
      doc.setProducer(PRODUCER);
      doc.setCreator(PRODUCER);
      doc.setCreationDate(new Date(document.completedAt));
      doc.setModificationDate(new Date(document.completedAt));
      // A classic cross-reference table: the seal is appended to it as an incremental update.
      return doc.save({ useObjectStreams: false });
    }),
};
