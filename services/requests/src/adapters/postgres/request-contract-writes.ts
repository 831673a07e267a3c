// A draft's contracts and fields in a transition's statement (request-writes.ts): fields
// replaced (ADR 3220), and contracts added or removed with their fields (ADR 3300).
import { sql } from '@esign/platform/database';
import type { SignatureRequest } from '../../domain/signature-request.js';

type Fragment = ReturnType<typeof sql.fragment>;

/** After the highest place `table` holds for the Request: a removal leaves a gap, and places only order. */
const nextPlace = (table: 'request_contracts' | 'request_fields', requestId: string) =>
  sql.fragment`(SELECT coalesce(max(position) + 1, 0) FROM ${sql.identifier([table])} WHERE request_id = ${requestId})`;

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
    removed.length === 0
      ? undefined
      : sql.fragment`
      DELETE FROM request_contracts
      WHERE request_id = ${request.id} AND template_id = ANY(${sql.array(removed, 'int8')}) AND ${when}`,
  ];
};

const valueOf = (value: string | boolean | null) => (value === null ? null : JSON.stringify(value));

/**
 * A draft's fields as the transition left them, each row by its name (unique in a
 * Request): those it kept updated, those a contract brought inserted after the others,
 * and those that went with a contract deleted (ADRs 3220, 3300); nothing when the
 * transition kept them (the domain keeps the very array then).
 */
export const fieldWrites = (
  previous: SignatureRequest,
  request: SignatureRequest,
  when: Fragment,
): (Fragment | undefined)[] => {
  if (request.fields === previous.fields) return [];
  const had = new Set(previous.fields.map((f) => f.name));
  const has = new Set(request.fields.map((f) => f.name));
  const kept = request.fields.filter((f) => had.has(f.name));
  const added = request.fields.filter((f) => !had.has(f.name));
  const removed = previous.fields.filter((f) => !has.has(f.name)).map((f) => f.name);
  return [
    kept.length === 0
      ? undefined
      : sql.fragment`
      UPDATE request_fields f SET default_value = x.default_value::jsonb, assigned_to = x.assigned_to
      FROM ${sql.unnest(
        kept.map((field) => [field.name, valueOf(field.defaultValue), field.assignedTo]),
        ['text', 'text', 'text'],
      )} AS x(name, default_value, assigned_to)
      WHERE f.request_id = ${request.id} AND f.name = x.name AND ${when}`,
    added.length === 0
      ? undefined
      : sql.fragment`
      INSERT INTO request_fields (request_id, position, name, default_value, assigned_to)
      SELECT ${request.id}, ${nextPlace('request_fields', request.id)} + x.n, x.name, x.default_value::jsonb,
             x.assigned_to
      FROM ${sql.unnest(
        added.map((field, i) => [i, field.name, valueOf(field.defaultValue), field.assignedTo]),
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
