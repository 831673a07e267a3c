import sanitizeHtml from 'sanitize-html';
import { ALLOWED_ATTRIBUTES, ALLOWED_SCHEMES, ALLOWED_TAGS } from '../../../domain/contract-allow-list.js';
import { trusted, type Html } from './html.js';

// Headings of a contract sit under the page's own h1 and the contract's h2.
const demote = (level: number) => `h${Math.min(level + 2, 6)}`;

// The stored form already passed the allow-list (adapters/html); the page keeps to it too.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: {
    ...Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
    a: ['href', 'rel', 'target'],
  },
  allowedSchemes: [...ALLOWED_SCHEMES],
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
 * A contract's merged HTML as the signer page shows it. Templates are admitted only when
 * the allow-list drops nothing of them (ContractHtmlPolicy), so this changes only the
 * presentation (heading levels, link targets); it sanitises again as a second line, for
 * a link target that render_data filled in. render_data was escaped before this.
 */
export const contractMarkup = (merged: string): Html => trusted(sanitizeHtml(merged, OPTIONS));
