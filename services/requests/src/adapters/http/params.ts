import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { MAX_PER_PAGE, problem, type FieldError } from '@esign/contracts';
import { HttpProblem, invalidQuery, notFound } from '@esign/platform';
import type { Idempotency } from '../../application/idempotency.js';
import type { PageRequest } from '../../ports/page.js';

const INTEGER_ID = /^[1-9][0-9]{0,14}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that cannot exist answer 404 like missing ones: there is nothing to correct in a path. */
export const integerId = (raw: string | undefined, resource: string): number => {
  if (raw === undefined || !INTEGER_ID.test(raw)) throw notFound(`No such ${resource}.`);
  return Number(raw);
};

export const uuidId = (raw: string | undefined, resource: string): string => {
  if (raw === undefined || !UUID.test(raw)) throw notFound(`No such ${resource}.`);
  return raw.toLowerCase();
};

export const DEFAULT_PER_PAGE = 20;
const MAX_PAGE = 1_000_000;

const positive = (raw: unknown, name: string, max: number, errors: FieldError[]): number | undefined => {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    errors.push({ path: name, message: `must be an integer from 1 to ${max}` });
    return undefined;
  }
  return Number(raw);
};

/** `page`, `per_page` (at most 100) and `state`; any other parameter is refused by name. */
export const listQuery = <S extends string>(
  query: Record<string, unknown>,
  states: readonly S[],
): { page: PageRequest; state: S | undefined } => {
  const errors: FieldError[] = [];
  for (const key of Object.keys(query)) {
    if (!['page', 'per_page', 'state'].includes(key))
      errors.push({ path: key, message: 'unknown parameter' });
  }
  const page = positive(query.page, 'page', MAX_PAGE, errors) ?? 1;
  const perPage = positive(query.per_page, 'per_page', MAX_PER_PAGE, errors) ?? DEFAULT_PER_PAGE;
  let state: S | undefined;
  if (query.state !== undefined) {
    if (typeof query.state === 'string' && (states as readonly string[]).includes(query.state))
      state = query.state as S;
    else
      errors.push({
        path: 'state',
        message: `must be one of ${states.map((s) => JSON.stringify(s)).join(', ')}`,
      });
  }
  if (errors.length > 0) throw invalidQuery(errors);
  return { page: { page, perPage }, state };
};

/** JSON with object keys sorted, so the same body written in another key order is the same call. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

const KEY = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The `Idempotency-Key` of a call, with a fingerprint of its method, path and body. */
export const idempotencyOf = (
  header: string | undefined,
  method: string,
  path: string,
  body: unknown,
): E.Either<HttpProblem, Idempotency | undefined> => {
  if (header === undefined || header === '') return E.right(undefined);
  if (!KEY.test(header)) {
    return E.left(
      new HttpProblem(
        problem({
          status: 400,
          code: 'invalid_idempotency_key',
          title: 'Invalid Idempotency-Key',
          detail: 'An Idempotency-Key is 1 to 255 visible ASCII characters, e.g. a UUID.',
        }),
      ),
    );
  }
  const fingerprint = createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
  return E.right({ key: header, fingerprint });
};
