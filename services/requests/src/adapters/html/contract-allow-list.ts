import type sanitizeHtml from 'sanitize-html';

/**
 * What an HTML contract may contain: elements whose every word a browser shows as text and
 * the PDF renderer prints the same way. Anything else (images and their alt text, forms,
 * SVG, titles, tooltips, list styles that renumber clauses, strike-through) either hides
 * text from one of the two or shows it differently, so a template using it is refused.
 */
export const ALLOWED_TAGS: readonly string[] = [
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
];

export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  ol: ['start'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
};

export const ALLOWED_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];

/** The sanitizer's options for the allow-list alone: what is stored, before any display change. */
export const allowListOptions: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]]),
  ),
  allowedSchemes: [...ALLOWED_SCHEMES],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};
