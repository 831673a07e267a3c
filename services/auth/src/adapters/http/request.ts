import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as t from 'io-ts';
import { decode, MAX_PER_PAGE, type FieldError } from '@esign/contracts';
import { invalidBody, invalidQuery } from '@esign/platform';
import type { AuthError } from '../../domain/errors.js';
import type { PageRequest } from '../../domain/model.js';
import { problemOf } from './problems.js';

/** Decodes the JSON body (parsed by the platform's body parser) or throws the 422 naming each offending field. */
export const bodyOf = <A>(codec: t.Decoder<unknown, A>, ctx: { readonly request: object }): A => {
  const body = (ctx.request as { body?: unknown }).body;
  const result = decode(codec as t.Type<A, unknown, unknown>)(body ?? {});
  if (E.isLeft(result)) throw invalidBody(result.left);
  return result.right;
};

/** Runs a use case; its expected failure becomes the problem the table says. */
export const run = async <A>(useCase: TE.TaskEither<AuthError, A>): Promise<A> => {
  const result = await useCase();
  if (E.isLeft(result)) throw problemOf(result.left);
  return result.right;
};

/** The credential of `Authorization: Bearer <credential>`, if that is what was sent. */
export const bearerOf = (header: string | undefined): string | undefined =>
  /^Bearer +([!-~]+) *$/i.exec(header ?? '')?.[1];

export const DEFAULT_PER_PAGE = 20;

const positive = (
  query: Record<string, string | string[] | undefined>,
  name: string,
  fallback: number,
  max: number,
  errors: FieldError[],
): number => {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    errors.push({ path: name, message: `must be an integer from 1 to ${max}` });
    return fallback;
  }
  return Number(raw);
};

/** `page` (from 1) and `per_page` (1 to 100, default 20), or a 400 naming the bad one. */
export const pageOf = (query: Record<string, string | string[] | undefined>): PageRequest => {
  const errors: FieldError[] = [];
  const page = positive(query, 'page', 1, 1_000_000, errors);
  const perPage = positive(query, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE, errors);
  if (errors.length > 0) throw invalidQuery(errors);
  return { page, perPage };
};

/** The one shape of every list answer lives in the contracts. */
export { pageView } from '@esign/contracts';
