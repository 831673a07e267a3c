import sanitizeHtml from 'sanitize-html';
import { trusted, type Html } from './html.js';

// Headings of a contract sit under the page's own h1 and the contract's h2.
const demote = (level: number) => `h${Math.min(level + 2, 6)}`;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'div',
    'span',
    'br',
    'hr',
    'section',
    'article',
    'header',
    'footer',
    'aside',
    'address',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'small',
    'sub',
    'sup',
    'mark',
    'abbr',
    'cite',
    'q',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'figure',
    'figcaption',
    'a',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    abbr: ['title'],
    ol: ['start', 'type'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Links leave the signing page in a new context without telling the target where from.
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
    h1: demote(1),
    h2: demote(2),
    h3: demote(3),
    h4: demote(4),
  },
};

/**
 * A contract's merged HTML as the signer page shows it: formatting, lists, tables and
 * links stay; scripts, styles, event handlers, forms, images and embedded objects go.
 * render_data was escaped before this, so it is text whatever it contains.
 */
export const contractMarkup = (merged: string): Html => trusted(sanitizeHtml(merged, OPTIONS));
