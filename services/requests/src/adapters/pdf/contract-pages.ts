import { PDFDocument } from '@cantoo/pdf-lib';
import type { FieldValue, SignerAct } from '../../domain/signing.js';
import type { ExecutedContract, ExecutedField } from '../../ports/pdf-renderer.js';
import { embedPng, fillPdf } from './fill-pdf-form.js';
import { htmlBlocks } from './html-blocks.js';
import type { Writer } from './text-layout.js';

export const displayValue = (value: FieldValue | null): string =>
  value === null || value === '' ? '(empty)' : value === true ? 'Yes' : value === false ? 'No' : value;

const signedCaption = (what: string, act: SignerAct): string =>
  `${what} · signed by ${act.signerId} on ${act.at}`;

/** An HTML contract laid out as text, its completed fields and its signatures after it. */
export const writeHtmlContract = async (
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

/** A PDF contract's pages, filled and flattened, and the values that found no place on them. */
export const writePdfContract = async (w: Writer, contract: Extract<ExecutedContract, { kind: 'pdf' }>) => {
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
