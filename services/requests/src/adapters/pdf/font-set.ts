/**
 * The fonts of an executed document and the text they draw: which face covers each
 * character (a face's own glyphs, then Arabic, then CJK), right-to-left runs in visual
 * order, widths, and the embedding of each face subset to what is used.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@cantoo/fontkit';
import { LRUCache } from 'lru-cache';
import type { PDFDocument, PDFFont, PDFPage, rgb } from '@cantoo/pdf-lib';

const require = createRequire(import.meta.url);

const FONT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  italic: 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf',
  boldItalic: 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf',
  signature: 'dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf',
  // Scripts DejaVu lacks: Arabic (shaped by fontkit), and Chinese, Japanese and Korean.
  arabic: '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
  cjk: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
} as const;

export type FontName = keyof typeof FONT_FILES;
export type Fonts = Record<FontName, PDFFont>;

/** After a face's own glyphs, where a character it lacks is looked for, in order. */
const FALLBACKS: readonly FontName[] = ['regular', 'arabic', 'cjk'];

/** What pdf-lib asks of fontkit (its type is not exported). */
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];

/** A face as fontkit parses it: what this module touches of it. */
interface Face {
  layout(text: string, features?: unknown): object;
  hasGlyphForCodePoint(codePoint: number): boolean;
}

/** Layouts each face keeps (ADR 2940): a few documents' worth of distinct words. */
const LAYOUTS_PER_FACE = 1_000;

/**
 * `face`, answering a layout it has done before from memory (ADR 2940). fontkit shapes
 * every call from scratch (the script, the features, each GSUB and GPOS lookup), and a
 * document lays out each word several times (its width while lines are wrapped, then its
 * width and glyphs as it is drawn), and the same words in every document. pdf-lib only
 * reads a layout (its glyphs' ids and advances), so one can serve every caller.
 */
const rememberingLayouts = (face: Face): Face => {
  const layout = face.layout.bind(face);
  const done = new LRUCache<string, object>({ max: LAYOUTS_PER_FACE });
  face.layout = (text, features) => {
    if (features !== undefined) return layout(text, features);
    let run = done.get(text);
    if (run === undefined) {
      run = layout(text);
      done.set(text, run);
    }
    return run;
  };
  return face;
};

let faces: Promise<Map<Uint8Array, Face>> | undefined;

/**
 * Each face parsed once per process, keyed by its bytes (ADR 2940). fontkit decodes a
 * face's tables lazily and keeps them, with its glyphs and its layout engine, on the
 * face: parsed again for every document, the cmap, metrics and shaping tables were
 * decoded again each time, and that was most of the CPU an executed document cost.
 */
const loadFaces = () =>
  (faces ??= loadFontBytes().then(
    (bytes) =>
      new Map(
        Object.values(bytes).map(
          (data) => [data, rememberingLayouts(fontkit.create(Buffer.from(data)) as unknown as Face)] as const,
        ),
      ),
  ));

/**
 * fontkit for pdf-lib, answering the face parsed once for the bytes `embedFonts` hands it
 * (those of FONT_FILES, read once). A face is shared by documents: pdf-lib keeps each
 * document's subset apart, and fontkit's layout and subset encoding run synchronously,
 * so documents never interleave inside them.
 */
const parsedOnce = (parsed: Map<Uint8Array, Face>): Fontkit => ({
  create: (data) => {
    const face = parsed.get(data);
    if (face === undefined) throw new Error('a font embedded that is not one of FONT_FILES');
    return face as unknown as ReturnType<Fontkit['create']>;
  },
});

/**
 * Whether `face` draws a code point, remembered for the Basic Multilingual Plane, 64 KB a
 * face (ADR 2940): fontkit searches the cmap on every call, and every character of every
 * word is asked about when it is measured and again when it is drawn.
 */
const rememberingCoverage = (face: Face): ((codePoint: number) => boolean) => {
  const known = new Uint8Array(0x10000); // 0: not asked yet, 1: drawn, 2: not drawn
  return (codePoint) => {
    if (codePoint > 0xffff) return face.hasGlyphForCodePoint(codePoint);
    if (known[codePoint] === 0) known[codePoint] = face.hasGlyphForCodePoint(codePoint) ? 1 : 2;
    return known[codePoint] === 1;
  };
};

let coverage: Promise<Record<FontName, (codePoint: number) => boolean>> | undefined;

/** Which characters each face draws, from its cmap. */
const loadCoverage = () =>
  (coverage ??= Promise.all([loadFontBytes(), loadFaces()]).then(
    ([bytes, parsed]) =>
      Object.fromEntries(
        (Object.keys(bytes) as FontName[]).map((name) => [
          name,
          rememberingCoverage(parsed.get(bytes[name])!),
        ]),
      ) as Record<FontName, (codePoint: number) => boolean>,
  ));

/**
 * Text split into runs each drawn by one face: `preferred` where it has the glyph, else
 * the first fallback that has it. A character no face has stays with `preferred` (and
 * shows as its box). White space is no exception: a space between two Japanese words is
 * drawn by `preferred`, as it was when each word and each space was drawn on its own,
 * before ADR 2950 joined them.
 */
export const fontRuns = (
  text: string,
  preferred: FontName,
  covers: Record<FontName, (codePoint: number) => boolean>,
): { text: string; font: FontName }[] => {
  const runs: { text: string; font: FontName }[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const current = runs.at(-1);
    const font = covers[preferred](code) ? preferred : (FALLBACKS.find((f) => covers[f](code)) ?? preferred);
    if (current !== undefined && current.font === font) current.text += ch;
    else runs.push({ text: ch, font });
  }
  return runs;
};

/** Strong right-to-left letters (Hebrew, Arabic, Syriac, Thaana, NKo and their presentation forms). */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/** The fonts of a document, and the faces that cover each character. */
export interface FontSet {
  readonly pdf: Fonts;
  readonly covers: Record<FontName, (codePoint: number) => boolean>;
}

/** The width of `text` drawn in `preferred` with fallbacks. */
export const widthOf = (set: FontSet, text: string, preferred: FontName, size: number): number =>
  fontRuns(text, preferred, set.covers).reduce(
    (width, run) => width + set.pdf[run.font].widthOfTextAtSize(run.text, size),
    0,
  );

/** Draws `text` on `page` from `at` in `preferred` (with fallbacks); answers its width. */
type DrawText = (
  page: PDFPage,
  set: FontSet,
  text: string,
  preferred: FontName,
  at: { x: number; y: number; size: number; color: ReturnType<typeof rgb> },
) => number;

/**
 * Draws `text` in `preferred` with fallbacks, left to right from `x`; answers its width.
 * fontkit lays out each run (Arabic joined and shaped, a right-to-left word's glyphs
 * in visual order); the order of words is the caller's (`visualOrder`).
 */
export const drawRuns: DrawText = (page, set, text, preferred, at) => {
  let x = at.x;
  for (const run of fontRuns(text, preferred, set.covers)) {
    const font = set.pdf[run.font];
    page.drawText(run.text, { x, y: at.y, size: at.size, font, color: at.color });
    x += font.widthOfTextAtSize(run.text, at.size);
  }
  return x - at.x;
};

const isRtl = (text: string) => RTL.test(text);

/**
 * Words of a line in the order they are seen: each stretch of right-to-left words
 * (with the spaces between them) is reversed, so a Hebrew or Arabic phrase reads from
 * the right. A simplification of the Unicode bidirectional algorithm: enough for names
 * and sentences in one script inside left-to-right text.
 */
export const visualOrder = <P extends { readonly text: string }>(pieces: readonly P[]): P[] => {
  const out: P[] = [];
  let i = 0;
  while (i < pieces.length) {
    if (!isRtl(pieces[i]!.text)) {
      out.push(pieces[i]!);
      i++;
      continue;
    }
    let end = i;
    // Extend over spaces only when another right-to-left word follows them.
    for (let j = i + 1; j < pieces.length; j++) {
      if (isRtl(pieces[j]!.text)) end = j;
      else if (pieces[j]!.text.trim() !== '') break;
    }
    out.push(...pieces.slice(i, end + 1).reverse());
    i = end + 1;
  }
  return out;
};

/**
 * `pieces` in visual order with each stretch of left-to-right neighbours that `alike` says
 * share a style joined into one piece (ADR 2950). One text operation then draws the
 * stretch: pdf-lib writes eight operators for each `drawText`, and one a word and one a
 * space was most of what a page cost. Right-to-left pieces stay apart, where
 * `visualOrder` put them; the glyphs and their advances are the same either way.
 */
export const joinLeftToRight = <P extends { readonly text: string }>(
  pieces: readonly P[],
  alike: (a: P, b: P) => boolean,
): P[] => {
  const out: P[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && !isRtl(last.text) && !isRtl(piece.text) && alike(last, piece))
      out[out.length - 1] = { ...last, text: last.text + piece.text };
    else out.push(piece);
  }
  return out;
};

/** `text` drawn as words in visual order; answers its width. */
export const drawLine: DrawText = (page, set, text, preferred, at) => {
  let x = at.x;
  const words = text
    .split(/(\s+)/)
    .filter((w) => w !== '')
    .map((w) => ({ text: w }));
  for (const word of joinLeftToRight(visualOrder(words), () => true))
    x += drawRuns(page, set, word.text, preferred, { ...at, x });
  return x - at.x;
};

let fontBytes: Promise<Record<FontName, Uint8Array>> | undefined;

/**
 * DejaVu (Latin, Greek, Cyrillic and more): the standard PDF fonts only encode WinAnsi,
 * and a signer's name or a contract's text is not always Latin. Read once per process.
 */
const loadFontBytes = (): Promise<Record<FontName, Uint8Array>> =>
  (fontBytes ??= Promise.all(
    (Object.keys(FONT_FILES) as FontName[]).map(
      async (name) => [name, await readFile(require.resolve(FONT_FILES[name]))] as const,
    ),
  ).then((entries) => Object.fromEntries(entries) as unknown as Record<FontName, Uint8Array>));

/** The fonts and what each covers, for a Writer. */
export const embedFontSet = async (doc: PDFDocument): Promise<FontSet> => ({
  pdf: await embedFonts(doc),
  covers: await loadCoverage(),
});

/** Embeds the fonts in `doc`, subset to the glyphs used (a face nothing uses adds only its name). */
export const embedFonts = async (doc: PDFDocument): Promise<Fonts> => {
  doc.registerFontkit(parsedOnce(await loadFaces()));
  const bytes = await loadFontBytes();
  const entries = await Promise.all(
    (Object.keys(bytes) as FontName[]).map(
      async (name) => [name, await doc.embedFont(bytes[name], { subset: true })] as const,
    ),
  );
  return Object.fromEntries(entries) as Fonts;
};

/** Text safe to draw: no control characters (lines are broken by the layout). */
export const printable = (text: string): string => text.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ');
