/**
 * The HTTP edge every service writes the same way: run a use case and turn its expected
 * failure into a problem, decode a JSON body into a 422 naming each field, read
 * `page`/`per_page`, read ids from a path, verify the principal the gateway forwards.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as t from 'io-ts';
import {
  decode,
  isUuid,
  MAX_PER_PAGE,
  type FieldError,
  type PageRequest,
  type Principal,
} from '@esign/contracts';
import { verifyPrincipal, type PrincipalVerifier } from './principal.js';
import { invalidBody, notFound, unauthorized, type HttpProblem } from './problems.js';

/** A use case runner for one service's error table: a Left is thrown as its problem. */
export const runWith =
  <Err>(problemOf: (error: Err) => HttpProblem) =>
  async <A>(task: TE.TaskEither<Err, A>): Promise<A> => {
    const result = await task();
    if (E.isLeft(result)) throw problemOf(result.left);
    return result.right;
  };

/**
 * Decodes the JSON body (the platform's body parser put it on `ctx.request`) or throws the
 * 422 naming each offending field. A request without a body is decoded as `absent.value`
 * (`{}` unless said otherwise; `undefined` makes a required body "required").
 */
export const decodeBody = <A, O>(
  codec: t.Type<A, O, unknown>,
  ctx: { readonly request: object },
  absent: { readonly value: unknown } = { value: {} },
): A => {
  const body = (ctx.request as { body?: unknown }).body;
  const decoded = decode(codec)(body === undefined ? absent.value : body);
  if (E.isLeft(decoded)) throw invalidBody(decoded.left);
  return decoded.right;
};

export const DEFAULT_PER_PAGE = 20;
const MAX_PAGE = 1_000_000;

const positive = (
  raw: unknown,
  name: string,
  fallback: number,
  max: number,
  errors: FieldError[],
): number => {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    errors.push({ path: name, message: `must be an integer from 1 to ${max}` });
    return fallback;
  }
  return Number(raw);
};

/**
 * `page` (from 1) and `per_page` (1 to 100, default 20) of a list call. With `known`, any
 * parameter not named there (nor `page`, `per_page`) is refused as unknown. Errors are
 * added to `errors` (unknown names first), for the caller to add its own and answer one 400.
 */
export const pageQuery = (
  query: Record<string, unknown>,
  errors: FieldError[],
  options: { readonly known?: readonly string[] } = {},
): PageRequest => {
  if (options.known !== undefined)
    for (const key of Object.keys(query))
      if (!['page', 'per_page', ...options.known].includes(key))
        errors.push({ path: key, message: 'unknown parameter' });
  return {
    page: positive(query.page, 'page', 1, MAX_PAGE, errors),
    perPage: positive(query.per_page, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE, errors),
  };
};

const INTEGER_ID = /^[1-9][0-9]{0,14}$/;

/** An integer id from a path; one that cannot exist answers 404 like a missing one (nothing to correct). */
export const integerIdParam = (raw: string | undefined, resource: string): number => {
  if (raw === undefined || !INTEGER_ID.test(raw)) throw notFound(`No such ${resource}.`);
  return Number(raw);
};

/** A UUID from a path, lower-cased; one that cannot exist answers 404 like a missing one. */
export const uuidParam = (raw: string | undefined, resource: string): string => {
  if (raw === undefined || !isUuid(raw)) throw notFound(`No such ${resource}.`);
  return raw.toLowerCase();
};

/**
 * The caller as the gateway vouches for it (the principal header, signed with the
 * gateway's private key and addressed to this service). A service trusts no scope it
 * cannot verify: without a valid principal nothing under /v1.1 answers.
 */
export const principalOf = async (
  verifier: PrincipalVerifier,
  header: string | undefined,
): Promise<Principal> => {
  if (header === undefined || header === '')
    throw unauthorized(
      'This call carries no verified principal: call the API through the gateway.',
      'unauthenticated',
    );
  const verified = await verifyPrincipal(verifier, header);
  if (E.isLeft(verified)) throw unauthorized('The forwarded principal is not valid.', 'invalid_principal');
  return verified.right;
};
