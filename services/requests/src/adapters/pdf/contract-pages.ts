import { PDFDocument } from '@cantoo/pdf-lib';
import type { Translator } from '@esign/contracts';
import type { FieldValue, SignerAct } from '../../domain/signing.js';
import type { ExecutedContract, ExecutedField } from '../../ports/pdf-renderer.js';
import { embedPng, fillPdf } from './fill-pdf-form.js';
import { htmlBlocks } from './html-blocks.js';
import type { Writer } from './text-layout.js';

// The contract pages are worded in the document's language, as its cover and audit pages
// (ADR 3820); what was recorded (values, names, times in UTC ISO form, hashes) is not.

type T = Translator['t'];

const displayValue = (t: T, value: FieldValue | null): string =>
  value === null || value === ''
    ? t('contract.empty')
    : value === true
      ? t('contract.yes')
      : value === false
        ? t('contract.no')
        : value;

const signedCaption = (t: T, what: string, act: SignerAct): string =>
  t('contract.signedCaption', { what, signer: act.signerId, date: act.at });

/** An HTML contract laid out as text, its completed fields and its signatures after it. */
export const writeHtmlContract = async (
  w: Writer,
  t: T,
  contract: Extract<ExecutedContract, { kind: 'html' }>,
  acts: readonly SignerAct[],
) => {
  w.newPage();
  w.heading(contract.name, 1);
  w.plain(t('contract.header', { id: contract.id, hash: contract.sha256 }), {
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
    w.heading(t('contract.completedFields'), 2);
    for (const field of entries)
      w.pair(
        field.name,
        `${displayValue(t, field.value)}${field.signerId === null ? '' : `   (${field.signerId})`}`,
      );
  }
  const signatureFields = contract.fields.filter((f) => f.definition.type === 'signature');
  w.heading(t('contract.signatures'), 2);
  const shown =
    signatureFields.length > 0
      ? signatureFields.map((f) => ({ what: f.name, act: f.signature }))
      : acts.filter((a) => a.kind === 'signed').map((act) => ({ what: t('contract.signature'), act }));
  for (const { what, act } of shown) {
    if (act === null || act.typedName === null) {
      w.plain(t('contract.notSigned', { what }), { italic: true });
      continue;
    }
    const image = act.drawnSignature === null ? null : await embedPng(w.doc, act.drawnSignature);
    w.signature(act.typedName, image, signedCaption(t, what, act));
  }
};

const trimRuns = (runs: readonly { text: string; bold: boolean; italic: boolean }[]) =>
  runs.map((r, i) => ({
    ...r,
    text: i === 0 ? r.text.trimStart() : i === runs.length - 1 ? r.text.trimEnd() : r.text,
  }));

/** A PDF contract's pages, filled and flattened, and the values that found no place on them. */
export const writePdfContract = async (
  w: Writer,
  t: T,
  contract: Extract<ExecutedContract, { kind: 'pdf' }>,
) => {
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
    w.heading(t('contract.values', { name: contract.name }), 2);
    w.plain(t('contract.unplaced'), {
      size: 9,
      muted: true,
    });
    for (const field of filled.unplaced)
      w.pair(
        field.name,
        field.definition.type === 'signature'
          ? t('contract.signedAs', {
              signer: field.signature?.signerId ?? t('contract.nobody'),
              name: field.signature?.typedName ?? '',
            })
          : displayValue(t, field.value),
      );
  }
};
