/**
 * Named prepared statements for the few statements that run on every create and every
 * send (ADRs 2820, 2830).
 *
 * slonik sends every statement unnamed, so Postgres parses and plans it on every call; for
 * the short statements of a send or a create that was more of the database's time than
 * running them. A statement built with `prepared(query)` is sent under a name derived
 * from its text: pg parses it once per connection and then only binds it, and Postgres
 * may keep a generic plan for it after five calls. Only statements whose generic plan is
 * as good as a custom one belong here (lookups by key), and only while the tables have
 * statistics: a generic plan made over tables never analysed is kept however they grow,
 * which is what made session 31 drop prepared creates (ADR 2830). A statement's text
 * must not depend on how many values it carries (arrays, not lists), or every call makes
 * a new name.
 *
 * The pool never discards session state (ADR 2620), so a statement stays prepared for the
 * connection's life; a schema change invalidates the plan and Postgres replans it. A
 * pooler in front of Postgres must keep a client's prepared statements (PgBouncer 1.21+
 * with `max_prepared_statements`).
 */
import { createHash } from 'node:crypto';
import type { QuerySqlToken } from 'slonik';

/** How a statement says it wants a name; also what an operator sees in pg_stat_activity. */
export const PREPARED_MARK = '/* prepared */ ';

/** Names by text; the texts are a handful, so the bound only guards against a misuse. */
const names = new Map<string, { readonly name: string; readonly text: string }>();
/**
 * Marked texts by text. A statement composed once per shape (ADR 2870) is then marked
 * once too, and each call hands slonik the same string, which its trims do not copy.
 */
const marks = new Map<string, string>();
const MAX_NAMES = 1_000;

/** `query`, sent as a named prepared statement. */
export const prepared = <Q extends QuerySqlToken>(query: Q): Q => {
  let sql = marks.get(query.sql);
  if (sql === undefined) {
    if (marks.size >= MAX_NAMES) marks.clear();
    sql = `${PREPARED_MARK}${query.sql}`;
    marks.set(query.sql, sql);
  }
  return { ...query, sql };
};

/** What the driver hands pg for `text`: the text itself, or a named statement. */
export const statementFor = (text: string): string | { readonly name: string; readonly text: string } => {
  if (!text.startsWith(PREPARED_MARK)) return text;
  let statement = names.get(text);
  if (statement === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    statement = { name: `esign_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`, text };
    names.set(text, statement);
  }
  return statement;
};
