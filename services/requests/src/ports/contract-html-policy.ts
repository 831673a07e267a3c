import type * as E from 'fp-ts/lib/Either.js';

/**
 * The one form an HTML contract is kept, shown, printed and hashed in. `admit` answers
 * the stored form of a template's HTML, or why it is refused: each element, attribute,
 * link or comment the allow-list would drop, so nothing the signer is not shown can reach
 * the executed PDF or the document hash.
 */
export interface ContractHtmlPolicy {
  readonly admit: (html: string) => E.Either<readonly string[], string>;
}
