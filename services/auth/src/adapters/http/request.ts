import type { FieldError, PageRequest } from '@esign/contracts';
import { decodeBody, invalidQuery, pageQuery, runWith } from '@esign/platform';
import { problemOf } from './problems.js';

/** Decodes the JSON body (parsed by the platform's body parser) or throws the 422 naming each offending field. */
export const bodyOf = decodeBody;

/** Runs a use case; its expected failure becomes the problem the table says. */
export const run = runWith(problemOf);

/** The credential of `Authorization: Bearer <credential>`, if that is what was sent. */
export const bearerOf = (header: string | undefined): string | undefined =>
  /^Bearer +([!-~]+) *$/i.exec(header ?? '')?.[1];

/** `page` (from 1) and `per_page` (1 to 100, default 20), or a 400 naming the bad one; other parameters are ignored. */
export const pageOf = (query: Record<string, string | string[] | undefined>): PageRequest => {
  const errors: FieldError[] = [];
  const page = pageQuery(query, errors);
  if (errors.length > 0) throw invalidQuery(errors);
  return page;
};

/** The one shape of every list answer lives in the contracts. */
export { pageView } from '@esign/contracts';
