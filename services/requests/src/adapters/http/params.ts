import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import {
  canonicalJson,
  HISTORY_ORDERS,
  IsoDateTime,
  isUuid,
  problem,
  REQUEST_HISTORY_TYPES,
  SITE_FEED_TYPES,
  type FieldError,
  type HistoryOrder,
} from '@esign/contracts';
import { HttpProblem, invalidQuery, pageQuery } from '@esign/platform';
import { decodeFeedCursor, FEED_START } from '../../application/feed-cursor.js';
import type { Idempotency } from '../../application/idempotency.js';
import type { FeedFrom, FeedPosition } from '../../ports/request-repository.js';
import type { PageRequest } from '../../ports/page.js';

/** What a list knows beside `page`, `per_page` and `state`. */
export interface ListParameters {
  /** Booleans: `true` or `false`. */
  readonly flags?: readonly string[];
  /** Exact texts (`signer_id`): 1 to 255 characters, as given. */
  readonly texts?: readonly string[];
  /** Positive integers (`contract_id`). */
  readonly ids?: readonly string[];
  /** Resource ids: UUIDs, read lower-case (`copied_from`). */
  readonly uuids?: readonly string[];
  /** Whether `q` searches it: trimmed, then 1 to 255 characters (`searchOf`). */
  readonly search?: boolean;
  /** Instants: ISO-8601 date-times with a zone, read as UTC `…Z` (ADR 3370). */
  readonly times?: readonly string[];
}

/**
 * `page`, `per_page` (at most 100), `state`, and what the `ListParameters` name; any other
 * parameter is refused by name, and every bad one is named in one 400.
 */
export const listQuery = <S extends string>(
  query: Record<string, unknown>,
  states: readonly S[],
  { flags = [], texts = [], ids = [], uuids = [], search = false, times = [] }: ListParameters = {},
): {
  page: PageRequest;
  state: S | undefined;
  flags: Readonly<Record<string, boolean>>;
  texts: Readonly<Record<string, string>>;
  ids: Readonly<Record<string, number>>;
  uuids: Readonly<Record<string, string>>;
  search: string | undefined;
  times: Readonly<Record<string, string>>;
} => {
  const errors: FieldError[] = [];
  const page = pageQuery(query, errors, {
    known: ['state', ...flags, ...texts, ...ids, ...uuids, ...times, ...(search ? ['q'] : [])],
  });
  const flagValues: Record<string, boolean> = {};
  for (const flag of flags) {
    const value = query[flag];
    if (value === undefined) continue;
    if (value === 'true' || value === 'false') flagValues[flag] = value === 'true';
    else errors.push({ path: flag, message: 'must be "true" or "false"' });
  }
  const textValues: Record<string, string> = {};
  for (const name of texts) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value === 'string' && value.length >= 1 && value.length <= 255) textValues[name] = value;
    else errors.push({ path: name, message: 'must be 1 to 255 characters, given once' });
  }
  const idValues: Record<string, number> = {};
  for (const name of ids) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value === 'string' && /^[1-9][0-9]{0,14}$/.test(value)) idValues[name] = Number(value);
    else errors.push({ path: name, message: 'must be a positive integer, given once' });
  }
  const uuidValues: Record<string, string> = {};
  for (const name of uuids) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value === 'string' && isUuid(value)) uuidValues[name] = value.toLowerCase();
    else errors.push({ path: name, message: 'must be a UUID, given once' });
  }
  const timeValues: Record<string, string> = {};
  for (const name of times) {
    const value = query[name];
    if (value === undefined) continue;
    const instant = IsoDateTime.decode(value);
    if (E.isRight(instant)) timeValues[name] = instant.right;
    else
      errors.push({
        path: name,
        message:
          'must be an ISO-8601 date-time with a time zone, given once, e.g. 2026-11-01T00:00:00Z (a + in an offset written %2B)',
      });
  }
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
  const searched = search ? searchOf(query.q, errors) : undefined;
  if (errors.length > 0) throw invalidQuery(errors);
  return {
    page,
    state,
    flags: flagValues,
    texts: textValues,
    ids: idValues,
    uuids: uuidValues,
    search: searched,
    times: timeValues,
  };
};

/**
 * A list's `q`: part of what it searches, in any case (ADRs 3200, 3360). Spaces around it
 * are dropped; what is left must be 1 to 255 characters, given once.
 */
export const searchOf = (q: unknown, errors: FieldError[]): string | undefined => {
  if (q === undefined) return undefined;
  const search = typeof q === 'string' ? q.trim() : '';
  if (search !== '' && search.length <= 255) return search;
  errors.push({ path: 'q', message: 'must be 1 to 255 characters' });
  return undefined;
};

/**
 * A history's `page`, `per_page` (at most 100), `order` and `type` (as the feed's, ADR 3540);
 * any other parameter is refused by name.
 */
export const historyQuery = (
  query: Record<string, unknown>,
  /** The types the history holds: a Request's, or a template's (ADR 3720). */
  held: readonly string[] = REQUEST_HISTORY_TYPES,
): { page: PageRequest; order: HistoryOrder; types?: readonly string[] } => {
  const errors: FieldError[] = [];
  const page = pageQuery(query, errors, { known: ['order', 'type'] });
  const { order = 'asc' } = query;
  const known = (HISTORY_ORDERS as readonly unknown[]).includes(order);
  if (!known) errors.push({ path: 'order', message: 'must be "asc" or "desc"' });
  const types = historyTypes(query.type, errors, held);
  if (errors.length > 0) throw invalidQuery(errors);
  return { page, order: order as HistoryOrder, ...(types && { types }) };
};

/**
 * A feed's `order` (`asc`, the default, or `desc`), its cursor (`after` oldest first,
 * `before` newest first: one the feed answered), `per_page` (at most 100) and `type`
 * (history event types, comma-separated or repeated); any other parameter is refused by
 * name, as is a cursor of the other order.
 */
export const feedQuery = (
  query: Record<string, unknown>,
): { from: FeedFrom; perPage: number; types?: readonly string[] } => {
  const errors: FieldError[] = [];
  for (const key of Object.keys(query))
    if (!['order', 'after', 'before', 'per_page', 'type'].includes(key))
      errors.push({ path: key, message: 'unknown parameter' });
  const { perPage } = pageQuery({ per_page: query.per_page }, errors);
  const { order = 'asc' } = query;
  if (order !== 'asc' && order !== 'desc') errors.push({ path: 'order', message: 'must be "asc" or "desc"' });
  const cursorOf = (name: 'after' | 'before'): FeedPosition | undefined => {
    const cursor = query[name];
    if (cursor === undefined) return undefined;
    const position = typeof cursor === 'string' ? decodeFeedCursor(cursor) : undefined;
    if (position === undefined)
      errors.push({ path: name, message: `must be a next_${name} this API answered` });
    return position;
  };
  const after = cursorOf('after');
  const before = cursorOf('before');
  if (order === 'desc' && query.after !== undefined)
    errors.push({ path: 'after', message: 'reads oldest first: not with order=desc (use before)' });
  if (order !== 'desc' && query.before !== undefined)
    errors.push({ path: 'before', message: 'reads newest first: only with order=desc' });
  const types = historyTypes(query.type, errors, SITE_FEED_TYPES);
  if (errors.length > 0) throw invalidQuery(errors);
  const from: FeedFrom = order === 'desc' ? { order, before } : { order: 'asc', after: after ?? FEED_START };
  return { from, perPage, ...(types && { types }) };
};

/**
 * `type=request.signed,request.completed` (or repeated): types of `known` only (a Request's
 * history types, or a Site feed's, ADR 3700), each once.
 */
const historyTypes = (
  raw: unknown,
  errors: FieldError[],
  known: readonly string[] = REQUEST_HISTORY_TYPES,
): readonly string[] | undefined => {
  if (raw === undefined) return undefined;
  const values: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  const given = values.flatMap((v): unknown[] => (typeof v === 'string' ? v.split(',') : [v]));
  if (given.length === 0 || !given.every((type) => (known as readonly unknown[]).includes(type))) {
    errors.push({ path: 'type', message: `must be one or more of ${known.join(', ')}` });
    return undefined;
  }
  return known.filter((type) => given.includes(type));
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

/**
 * `created_from` and `created_before` as a list reads them (ADR 3370): a half-open interval,
 * either end alone; one that holds no instant is a mistake, said so at `created_before`.
 */
export const createdInterval = (
  times: Readonly<Record<string, string>>,
): { readonly createdFrom?: string | undefined; readonly createdBefore?: string | undefined } => {
  const { created_from: createdFrom, created_before: createdBefore } = times;
  if (createdFrom !== undefined && createdBefore !== undefined && createdFrom >= createdBefore)
    throw invalidQuery([{ path: 'created_before', message: 'must be later than created_from' }]);
  return { createdFrom, createdBefore };
};
