import { Parser } from 'htmlparser2';

/** A run of text in one style. */
export interface Run {
  readonly text: string;
  readonly bold: boolean;
  readonly italic: boolean;
}

/** A block of a contract laid out on a PDF page. */
export interface Block {
  readonly kind: 'heading' | 'paragraph' | 'item' | 'pre' | 'rule';
  /** 1–6 for headings. */
  readonly level: number;
  /** Nesting depth of lists and quotes, for the indent. */
  readonly depth: number;
  /** "• " or "3. " for list items. */
  readonly marker: string;
  readonly runs: readonly Run[];
}

// Content of these elements is never text of the contract.
const SKIPPED = new Set([
  'script',
  'style',
  'head',
  'title',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'canvas',
  'select',
  'textarea',
  'button',
]);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'address',
  'blockquote',
  'figure',
  'figcaption',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'form',
  'fieldset',
  'legend',
  'details',
  'summary',
  'caption',
]);

/**
 * Reads a contract's HTML as a sequence of text blocks (headings, paragraphs, list items,
 * preformatted text, rules) with bold and italic runs: what a printed contract keeps.
 * Scripts, styles and embedded objects contribute nothing; entities are decoded.
 */
export const htmlBlocks = (html: string): Block[] => {
  const blocks: Block[] = [];
  let runs: Run[] = [];
  let current: { kind: Block['kind']; level: number; marker: string } = {
    kind: 'paragraph',
    level: 0,
    marker: '',
  };
  let skipping = 0;
  let bold = 0;
  let italic = 0;
  let pre = 0;
  let depth = 0;
  const lists: { ordered: boolean; next: number }[] = [];
  let cellOpen = false;

  const flush = () => {
    const text = runs.map((r) => r.text).join('');
    if (text.trim() !== '' || current.kind === 'pre') {
      if (text.trim() !== '') blocks.push({ ...current, depth, runs });
    }
    runs = [];
    current = { kind: 'paragraph', level: 0, marker: '' };
  };
  const push = (text: string) => {
    if (text === '') return;
    runs.push({ text, bold: bold > 0, italic: italic > 0 });
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (skipping > 0 || SKIPPED.has(name)) {
          skipping += SKIPPED.has(name) ? 1 : 0;
          return;
        }
        if (/^h[1-6]$/.test(name)) {
          flush();
          current = { kind: 'heading', level: Number(name[1]), marker: '' };
        } else if (name === 'li') {
          flush();
          const list = lists.at(-1);
          const marker = list?.ordered === true ? `${list.next++}. ` : '• ';
          current = { kind: 'item', level: 0, marker };
        } else if (name === 'pre') {
          flush();
          pre++;
          current = { kind: 'pre', level: 0, marker: '' };
        } else if (name === 'hr') {
          flush();
          blocks.push({ kind: 'rule', level: 0, depth, marker: '', runs: [] });
        } else if (name === 'br') {
          push('\n');
        } else if (name === 'td' || name === 'th') {
          if (cellOpen) push('   ');
          cellOpen = true;
          if (name === 'th') bold++;
        } else if (name === 'img') {
          const alt = attributes.alt?.trim();
          if (alt) push(`[${alt}]`);
        } else if (BLOCKS.has(name)) {
          flush();
          if (name === 'ul' || name === 'ol') {
            lists.push({ ordered: name === 'ol', next: Number(attributes.start ?? '1') || 1 });
            depth++;
          } else if (name === 'blockquote' || name === 'dd') depth++;
          if (name === 'tr') cellOpen = false;
        }
        if (name === 'b' || name === 'strong') bold++;
        if (name === 'i' || name === 'em' || name === 'cite') italic++;
      },
      ontext(text) {
        if (skipping > 0) return;
        push(pre > 0 ? text : text.replace(/\s+/g, ' '));
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (skipping > 0) return;
        if (name === 'b' || name === 'strong') bold = Math.max(0, bold - 1);
        if (name === 'i' || name === 'em' || name === 'cite') italic = Math.max(0, italic - 1);
        if (name === 'th') bold = Math.max(0, bold - 1);
        if (name === 'pre') {
          flush();
          pre = Math.max(0, pre - 1);
        } else if (/^h[1-6]$/.test(name) || name === 'li' || BLOCKS.has(name)) {
          flush();
          if (name === 'ul' || name === 'ol') {
            lists.pop();
            depth = Math.max(0, depth - 1);
          } else if (name === 'blockquote' || name === 'dd') depth = Math.max(0, depth - 1);
          if (name === 'tr') cellOpen = false;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
};
