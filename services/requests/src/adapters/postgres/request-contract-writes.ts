// A draft's contracts and fields in a transition's statement (request-writes.ts): fields
// replaced (ADR 3220), contracts added or removed with their fields (ADR 3300), and both put
// in a new order (ADR 3310).
import { sql } from '@esign/platform/database';
import type { SignatureRequest } from '../../domain/signature-request.js';

type Fragment = ReturnType<typeof sql.fragment>;

/** After the highest place `table` holds for the Request: a removal leaves a gap, and places only order. */
const nextPlace = (table: Table, requestId: string) =>
  sql.fragment`(SELECT coalesce(max(position) + 1, 0) FROM ${sql.identifier([table])} WHERE request_id = ${requestId})`;

type Table = 'request_contracts' | 'request_fields';

/**
 * The first of `count` places that none of the Request's rows in `table` holds: 0 when they
 * all sit at `count` or above, else after the highest. Rows put in a new order move there
 * (ADR 3310), since one statement cannot renumber a primary key in place; the places
 * alternate between the two ranges rather than grow.
 */
const freePlaces = (table: Table, requestId: string, count: number) =>
  sql.fragment`(SELECT CASE WHEN coalesce(min(position), ${count}) >= ${count} THEN 0 ELSE max(position) + 1 END
    FROM ${sql.identifier([table])} WHERE request_id = ${requestId})`;

/** Whether the rows `after` kept of `before` (by `key`) stand in another order than they did. */
const reordered = <T>(
  before: readonly T[],
  after: readonly T[],
  key: (row: T) => string | number,
): boolean => {
  const kept = new Set(after.map(key));
  const was = before.map(key).filter((k) => kept.has(k));
  const had = new Set(was);
  const is = after.map(key).filter((k) => had.has(k));
  return is.some((k, i) => k !== was[i]);
};

/** The contracts added to a draft, after the others, and those removed (ADR 3300). */
export const contractWrites = (
  previous: SignatureRequest,
  request: SignatureRequest,
  when: Fragment,
): (Fragment | undefined)[] => {
  if (request.contracts === previous.contracts) return [];
  const had = new Set(previous.contracts.map((c) => c.id));
  const has = new Set(request.contracts.map((c) => c.id));
  const added = request.contracts.filter((c) => !had.has(c.id));
  const removed = previous.contracts.filter((c) => !has.has(c.id)).map((c) => c.id);
  if (reordered(previous.contracts, request.contracts, (c) => c.id)) {
    // Every row to its place in the new order (ADR 3310); the added ones inserted there.
    const base = freePlaces('request_contracts', request.id, request.contracts.length);
    const places = request.contracts.map((c, i) => [i, c.id, c.name] as const);
    return [
      sql.fragment`
      UPDATE request_contracts c SET position = ${base} + x.n
      FROM ${sql.unnest(
        places.filter(([, id]) => had.has(id)).map(([n, id]) => [n, id]),
        ['int2', 'int8'],
      )} AS x(n, template_id)
      WHERE c.request_id = ${request.id} AND c.template_id = x.template_id AND ${when}`,
      added.length === 0
        ? undefined
        : sql.fragment`
      INSERT INTO request_contracts (request_id, position, template_id, name)
      SELECT ${request.id}, ${base} + c.n, c.template_id, c.name
      FROM ${sql.unnest(
        places.filter(([, id]) => !had.has(id)),
        ['int2', 'int8', 'text'],
      )} AS c(n, template_id, name)
      WHERE ${when}`,
      removed.length === 0 ? undefined : contractsDelete(request.id, removed, when),
    ];
  }
  return [
    added.length === 0
      ? undefined
      : sql.fragment`
      INSERT INTO request_contracts (request_id, position, template_id, name)
      SELECT ${request.id}, ${nextPlace('request_contracts', request.id)} + c.n, c.template_id, c.name
      FROM ${sql.unnest(
        added.map((c, i) => [i, c.id, c.name]),
        ['int2', 'int8', 'text'],
      )} AS c(n, template_id, name)
      WHERE ${when}`,
    removed.length === 0 ? undefined : contractsDelete(request.id, removed, when),
  ];
};

const contractsDelete = (requestId: string, removed: readonly number[], when: Fragment) => sql.fragment`
      DELETE FROM request_contracts
      WHERE request_id = ${requestId} AND template_id = ANY(${sql.array([...removed], 'int8')}) AND ${when}`;

const valueOf = (value: string | boolean | null) => (value === null ? null : JSON.stringify(value));

/**
 * A draft's fields as the transition left them, each row by its name (unique in a
 * Request): those it kept updated, those a contract brought inserted after the others,
 * and those that went with a contract deleted (ADRs 3220, 3300); every row moved to its
 * place when they stand in a new order (ADR 3310). Nothing when the transition kept them
 * (the domain keeps the very array then).
 */
export const fieldWrites = (
  previous: SignatureRequest,
  request: SignatureRequest,
  when: Fragment,
): (Fragment | undefined)[] => {
  if (request.fields === previous.fields) return [];
  const had = new Set(previous.fields.map((f) => f.name));
  const has = new Set(request.fields.map((f) => f.name));
  const rows = request.fields.map((f, i) => [i, f.name, valueOf(f.defaultValue), f.assignedTo] as const);
  const kept = rows.filter(([, name]) => had.has(name));
  const added = rows.filter(([, name]) => !had.has(name));
  const removed = previous.fields.filter((f) => !has.has(f.name)).map((f) => f.name);
  const moved = reordered(previous.fields, request.fields, (f) => f.name);
  // In a new order every row goes to its place among all; otherwise the added go after the others.
  const base = moved ? freePlaces('request_fields', request.id, rows.length) : undefined;
  return [
    kept.length === 0
      ? undefined
      : sql.fragment`
      UPDATE request_fields f SET default_value = x.default_value::jsonb, assigned_to = x.assigned_to${
        base === undefined ? sql.fragment`` : sql.fragment`, position = ${base} + x.n`
      }
      FROM ${sql.unnest(
        kept.map((row) => [...row]),
        ['int4', 'text', 'text', 'text'],
      )} AS x(n, name, default_value, assigned_to)
      WHERE f.request_id = ${request.id} AND f.name = x.name AND ${when}`,
    added.length === 0
      ? undefined
      : sql.fragment`
      INSERT INTO request_fields (request_id, position, name, default_value, assigned_to)
      SELECT ${request.id}, ${base ?? nextPlace('request_fields', request.id)} + x.n, x.name,
             x.default_value::jsonb, x.assigned_to
      FROM ${sql.unnest(
        added.map(([n, name, value, assignedTo], i) => [base === undefined ? i : n, name, value, assignedTo]),
        ['int4', 'text', 'text', 'text'],
      )} AS x(n, name, default_value, assigned_to)
      WHERE ${when}`,
    removed.length === 0
      ? undefined
      : sql.fragment`
      DELETE FROM request_fields
      WHERE request_id = ${request.id} AND name = ANY(${sql.array(removed, 'text')}) AND ${when}`,
  ];
};
