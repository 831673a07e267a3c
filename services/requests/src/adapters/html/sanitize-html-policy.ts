import * as E from 'fp-ts/lib/Either.js';
import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';
import type { ContractHtmlPolicy } from '../../ports/contract-html-policy.js';
import { ALLOWED_ATTRIBUTES, ALLOWED_SCHEMES, ALLOWED_TAGS } from '../../domain/contract-allow-list.js';
import { allowListOptions } from './contract-allow-list.js';

// A template author fixes a handful at a time; a list of thousands helps nobody.
const MAX_PROBLEMS = 10;

const tags = new Set(ALLOWED_TAGS);

/** Why the sanitizer would drop this link target, as sanitize-html decides it; undefined if kept. */
const refusedHref = (href: string): string | undefined => {
  const compact = href.replace(/[\x00-\x20]+/g, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(compact)?.[1]?.toLowerCase();
  if (scheme === undefined) return /^[/\\]{2}/.test(compact) ? 'a protocol-relative link (//…)' : undefined;
  return ALLOWED_SCHEMES.includes(scheme) ? undefined : `a "${scheme}:" link`;
};

/** Every part of `html` the allow-list would drop, named with where it starts. */
const dropped = (html: string): string[] => {
  const problems: string[] = [];
  const add = (message: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(message);
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const at = parser.startIndex;
        if (!tags.has(name)) {
          add(
            `has <${name}> at offset ${at}, which a signer would not be shown as written: HTML contracts may use only ${ALLOWED_TAGS.join(', ')}`,
          );
          return;
        }
        const allowed = ALLOWED_ATTRIBUTES[name] ?? [];
        for (const [attribute, value] of Object.entries(attributes)) {
          if (!allowed.includes(attribute))
            add(
              `has attribute "${attribute}" on <${name}> at offset ${at}, which a signer would not be shown: ${
                allowed.length === 0
                  ? `<${name}> takes no attributes`
                  : `<${name}> may have only ${allowed.join(', ')}`
              }`,
            );
          else if (attribute === 'href') {
            const why = refusedHref(value);
            if (why !== undefined)
              add(`has ${why} on <a> at offset ${at}: links may only be ${ALLOWED_SCHEMES.join(', ')}`);
          }
        }
      },
      oncomment() {
        add(`has an HTML comment at offset ${parser.startIndex}: comments are not kept in a contract`);
      },
      onprocessinginstruction(name) {
        add(`has <${name}…> at offset ${parser.startIndex}: send the contract's body only`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return problems;
};

/**
 * Admits an HTML template only when the allow-list would drop nothing of it, and keeps it
 * in the sanitizer's own serialisation: the form the signer page, the executed PDF and the
 * document hash all read.
 */
export const sanitizeHtmlPolicy: ContractHtmlPolicy = {
  admit: (html) => {
    const problems = dropped(html);
    return problems.length > 0 ? E.left(problems) : E.right(sanitizeHtml(html, allowListOptions));
  },
};
