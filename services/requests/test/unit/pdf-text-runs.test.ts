import assert from 'node:assert/strict';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from '@cantoo/pdf-lib';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import fontkit from '@cantoo/fontkit';
import { embedFontSet, fontRuns, joinLeftToRight, type FontName } from '../../src/adapters/pdf/font-set.js';
import { pdfLibRenderer } from '../../src/adapters/pdf/pdf-lib-renderer.js';

/** DejaVu has Latin and Greek and spaces; the fallbacks have the rest. */
const covers: Record<FontName, (codePoint: number) => boolean> = {
  regular: (c) => c < 0x3000,
  bold: (c) => c < 0x3000,
  italic: (c) => c < 0x3000,
  boldItalic: (c) => c < 0x3000,
  signature: (c) => c < 0x3000,
  arabic: () => false,
  cjk: (c) => c >= 0x3000,
};

interface Piece {
  readonly text: string;
  readonly font: string;
}
const sameFont = (a: Piece, b: Piece) => a.font === b.font;

/** The text operators of every page's content streams, decoded. */
const pageContents = async (pdf: Uint8Array): Promise<string> => {
  const doc = await PDFDocument.load(pdf);
  return doc
    .getPages()
    .flatMap((page) => {
      const contents = page.node.Contents();
      const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
      return streams.map((ref) => {
        const stream = doc.context.lookup(ref);
        assert.ok(stream instanceof PDFRawStream);
        return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      });
    })
    .join('\n');
};

describe('executed documents: the text drawn a stretch at a time (ADR 2950)', () => {
  it('joins neighbouring left-to-right pieces of one style, and keeps right-to-left ones apart', () => {
    const pieces: Piece[] = [
      { text: 'Signed', font: 'regular' },
      { text: ' ', font: 'regular' },
      { text: 'by', font: 'regular' },
      { text: ' ', font: 'regular' },
      { text: 'Alice', font: 'bold' },
      { text: ' ', font: 'regular' },
      { text: 'דוד', font: 'regular' },
      { text: ' ', font: 'regular' },
      { text: 'כהן', font: 'regular' },
      { text: ' ', font: 'regular' },
      { text: 'today', font: 'regular' },
    ];
    assert.deepEqual(
      joinLeftToRight(pieces, sameFont).map((p) => `${p.font}:${p.text}`),
      [
        'regular:Signed by ',
        'bold:Alice',
        'regular: ',
        'regular:דוד',
        'regular: ',
        'regular:כהן',
        'regular: today',
      ],
    );
  });

  it('draws a space between two Japanese words in the preferred face, as when each was drawn alone', () => {
    assert.deepEqual(fontRuns('山田 太郎 signs', 'regular', covers), [
      { text: '山田', font: 'cjk' },
      { text: ' ', font: 'regular' },
      { text: '太郎', font: 'cjk' },
      { text: ' signs', font: 'regular' },
    ]);
  });

  it('says which face draws a character as fontkit does, asked once or again, inside the BMP and beyond (ADR 2940)', async function () {
    this.timeout(30_000); // the first document parses the fonts
    const { covers } = await embedFontSet(await PDFDocument.create());
    const require = createRequire(import.meta.url);
    const parse = async (file: string) =>
      fontkit.create(await readFile(require.resolve(file))) as unknown as {
        hasGlyphForCodePoint(c: number): boolean;
      };
    const faces = {
      regular: await parse('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
      cjk: await parse('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
    };
    // Latin, Greek, Hebrew, Arabic, CJK, a private-use point, and past the BMP: an emoji,
    // a CJK extension B ideograph.
    const points = [0x41, 0x3b1, 0x5d3, 0x645, 0x5c71, 0xe000, 0x1f600, 0x20000];
    for (const c of [...points, ...points])
      for (const name of ['regular', 'cjk'] as const)
        assert.equal(covers[name](c), faces[name].hasGlyphForCodePoint(c), `U+${c.toString(16)} in ${name}`);
    assert.ok(covers.cjk(0x5c71) && !covers.regular(0x5c71), '山 is drawn by the Japanese face only');
  });

  it('draws a paragraph of one style with one text operation a line, not one a word and a space', async function () {
    this.timeout(30_000); // the first document parses the fonts
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const pdf = await pdfLibRenderer.executed({
      requestId: '00000000-0000-4000-8000-000000000001',
      siteName: 'Site',
      contracts: [
        {
          kind: 'html',
          id: 1,
          name: 'Contract',
          html: `<p>${words}</p>`,
          sha256: 'a'.repeat(64),
          fields: [],
        },
      ],
      signers: [],
      documentSha256: 'a'.repeat(64),
      createdAt: '2026-11-01T09:00:00.000Z',
      sentAt: '2026-11-01T09:00:00.000Z',
      completedAt: '2026-11-01T09:00:00.000Z',
    })();
    assert.ok(pdf._tag === 'Right');
    const contents = await pageContents(pdf.right);
    const shown = contents.match(/Tj\b/g)?.length ?? 0;
    // The whole document (cover, contract, audit page): 40 text operations joined, 272
    // with each word and each space drawn on its own.
    assert.ok(shown <= 60, `${shown} text operations`);
  });
});
