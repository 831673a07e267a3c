import { PDFDocument, type PDFField, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';
import type { FieldValue, SignerAct } from '../../domain/signing.js';
import type { ExecutedContract, ExecutedField } from '../../ports/pdf-renderer.js';
import { drawLine, embedFontSet, printable, type FontSet } from './font-set.js';
import { pdfFormField } from './pdf-form-field.js';
import { fitSize, SIGNATURE_INK } from './text-layout.js';

/** Sets one form field to a value; answers false when the PDF's field cannot take it. */
const setField = (field: PDFField, value: FieldValue): boolean => {
  const input = pdfFormField(field);
  try {
    switch (input?.kind) {
      case 'text':
        input.field.setText(String(value));
        return true;
      case 'checkbox':
        if (value === true) input.field.check();
        else input.field.uncheck();
        return true;
      case 'choice':
        if (typeof value !== 'string') return false;
        input.field.select(value);
        return true;
      default:
        return false;
    }
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
export const fillPdf = async (
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
    if (field.definition.type === 'signature' || pdfFormField(target)?.kind === 'signature') {
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

/** A PNG embedded in `doc`, or null when it cannot be read. */
export const embedPng = async (doc: PDFDocument, png: Uint8Array): Promise<PDFImage | null> => {
  try {
    return await doc.embedPng(png);
  } catch {
    return null;
  }
};
