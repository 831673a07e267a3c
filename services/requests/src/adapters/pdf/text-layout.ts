import { rgb, type PDFDocument, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';
import {
  drawLine,
  drawRuns,
  joinLeftToRight,
  printable,
  visualOrder,
  widthOf,
  type FontName,
  type Fonts,
  type FontSet,
} from './font-set.js';
import type { Run } from './html-blocks.js';

/** A page cursor over an executed document's pages: wrapped text, key/value lines, images, rules. */

export const PAGE = { width: 612, height: 792, margin: 56 } as const;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.35, 0.35, 0.4);
export const SIGNATURE_INK = rgb(0.05, 0.15, 0.45);

interface Piece {
  readonly text: string;
  readonly font: FontName;
  readonly size: number;
  readonly muted: boolean;
}

const sameStyle = (a: Piece, b: Piece) => a.font === b.font && a.size === b.size && a.muted === b.muted;

/**
 * A cursor over pages: writes wrapped text, key/value lines, images and rules, adding a
 * page whenever the next thing does not fit. Every page gets a footer at the end.
 */
export class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    readonly doc: PDFDocument,
    readonly set: FontSet,
  ) {}

  get fonts(): Fonts {
    return this.set.pdf;
  }

  private width_(text: string, font: FontName, size: number): number {
    return widthOf(this.set, text, font, size);
  }

  get width(): number {
    return PAGE.width - 2 * PAGE.margin;
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = PAGE.height - PAGE.margin;
  }

  ensure(height: number): void {
    if (this.pages.length === 0 || this.y - height < PAGE.margin + 20) this.newPage();
  }

  space(points: number): void {
    this.y -= points;
  }

  fontFor(run: { bold: boolean; italic: boolean }): FontName {
    if (run.bold && run.italic) return 'boldItalic';
    if (run.bold) return 'bold';
    if (run.italic) return 'italic';
    return 'regular';
  }

  /** Wraps styled runs into lines within `width`, honouring "\n" line breaks. */
  private lines(runs: readonly Run[], size: number, width: number, muted: boolean): Piece[][] {
    const lines: Piece[][] = [[]];
    let used = 0;
    const place = (text: string, font: FontName) => {
      const w = this.width_(text, font, size);
      const line = lines.at(-1)!;
      if (used + w > width && line.length > 0 && text.trim() !== '') {
        lines.push([]);
        used = 0;
        if (text.trim() === '') return;
      }
      if (lines.at(-1)!.length === 0 && text.trim() === '') return;
      lines.at(-1)!.push({ text, font, size, muted });
      used += w;
    };
    for (const run of runs) {
      const font = this.fontFor(run);
      for (const [i, segment] of printable(run.text).split('\n').entries()) {
        if (i > 0) {
          lines.push([]);
          used = 0;
        }
        for (const word of segment.split(/(\s+)/)) {
          if (word === '') continue;
          if (this.width_(word, font, size) <= width) {
            place(word, font);
            continue;
          }
          // A word longer than the line (a hash, a URL) is broken where it must be.
          let chunk = '';
          for (const ch of word) {
            if (this.width_(chunk + ch, font, size) > width) {
              place(chunk, font);
              chunk = '';
            }
            chunk += ch;
          }
          place(chunk, font);
        }
      }
    }
    return lines;
  }

  /** Writes runs as a wrapped paragraph at `indent`, with an optional hanging marker. */
  text(
    runs: readonly Run[],
    options: { size?: number; indent?: number; marker?: string; muted?: boolean; after?: number } = {},
  ): void {
    const size = options.size ?? 10.5;
    const indent = options.indent ?? 0;
    const markerWidth =
      options.marker === undefined || options.marker === ''
        ? 0
        : this.fonts.regular.widthOfTextAtSize(options.marker, size);
    const lineHeight = size * 1.4;
    const lines = this.lines(runs, size, this.width - indent - markerWidth, options.muted ?? false);
    lines.forEach((line, i) => {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      let x = PAGE.margin + indent;
      if (i === 0 && markerWidth > 0)
        this.page.drawText(options.marker!, { x, y: this.y, size, font: this.fonts.regular, color: INK });
      x += markerWidth;
      for (const piece of joinLeftToRight(visualOrder(line), sameStyle))
        x += drawRuns(this.page, this.set, piece.text, piece.font, {
          x,
          y: this.y,
          size: piece.size,
          color: piece.muted ? MUTED : INK,
        });
    });
    this.y -= options.after ?? size * 0.6;
  }

  plain(
    text: string,
    options: Parameters<Writer['text']>[1] & { bold?: boolean; italic?: boolean } = {},
  ): void {
    this.text([{ text, bold: options.bold ?? false, italic: options.italic ?? false }], options);
  }

  heading(text: string, level: number): void {
    const size = [18, 15, 13, 12, 11, 11][Math.min(Math.max(level, 1), 6) - 1]!;
    this.ensure(size * 3);
    this.space(size * 0.4);
    this.plain(text, { size, bold: true, after: size * 0.5 });
  }

  /** "label: value" with the label in bold, the value wrapped beside nothing: one paragraph. */
  pair(label: string, value: string, indent = 0): void {
    this.text(
      [
        { text: `${label}: `, bold: true, italic: false },
        { text: value, bold: false, italic: false },
      ],
      { indent, size: 9.5, after: 2 },
    );
  }

  rule(): void {
    this.ensure(12);
    this.y -= 6;
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.width - PAGE.margin, y: this.y },
      thickness: 0.5,
      color: MUTED,
    });
    this.y -= 6;
  }

  /** A signature: the drawing (if any) above the typed name in a script-like face, on a line. */
  signature(typedName: string, image: PDFImage | null, caption: string): void {
    const height = image === null ? 44 : 90;
    this.ensure(height + 30);
    const x = PAGE.margin;
    const top = this.y;
    if (image !== null) {
      const scale = Math.min(220 / image.width, 50 / image.height, 1);
      this.page.drawImage(image, {
        x,
        y: top - 52,
        width: image.width * scale,
        height: image.height * scale,
      });
    }
    const nameSize = fitSize(this.set, 'signature', printable(typedName), 260, 20);
    const baseline = top - height + 14;
    drawLine(this.page, this.set, printable(typedName), 'signature', {
      x,
      y: baseline,
      size: nameSize,
      color: SIGNATURE_INK,
    });
    this.page.drawLine({
      start: { x, y: baseline - 6 },
      end: { x: x + 280, y: baseline - 6 },
      thickness: 0.6,
      color: MUTED,
    });
    this.y = baseline - 8;
    this.plain(caption, { size: 8.5, muted: true, after: 10 });
  }

  /** Writes `line(page, pages)` ("Request … · page n of N") at the foot of every page, from 1. */
  footer(line: (page: number, pages: number) => string): void {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      page.drawText(printable(line(i + 1, pages.length)), {
        x: PAGE.margin,
        y: 20,
        size: 7.5,
        font: this.fonts.regular,
        color: MUTED,
      });
    });
  }
}

/** The largest size up to `max` at which `text` fits in `width`. */
export const fitSize = (set: FontSet, font: FontName, text: string, width: number, max: number): number => {
  const at1 = widthOf(set, text, font, 1);
  return at1 === 0 ? max : Math.max(6, Math.min(max, width / at1));
};
