import { sql } from '@esign/platform/database';
import type { Harness } from './harness.js';

/** Every scan node of an EXPLAIN (FORMAT JSON) plan, as "node type on index or relation". */
export const scans = (node: unknown): string[] => {
  if (typeof node !== 'object' || node === null) return [];
  const n = node as {
    'Node Type'?: string;
    'Index Name'?: string;
    'Relation Name'?: string;
    Plans?: unknown[];
  };
  const own = n['Node Type']?.includes('Scan')
    ? [`${n['Node Type']} on ${n['Index Name'] ?? n['Relation Name']}`]
    : [];
  return [...own, ...(n.Plans ?? []).flatMap(scans)];
};

/**
 * The scans of `statement`'s plan with sequential scans off: on a test's tiny table the
 * planner rightly prefers one, and a plan on an index shows the index serves the statement.
 */
export const indexedScans = (h: Harness, statement: ReturnType<typeof sql.unsafe>): Promise<string[]> =>
  h.pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SET LOCAL enable_seqscan = off`);
    const result = await tx.query(sql.unsafe`EXPLAIN (FORMAT JSON) ${statement}`);
    return scans((result.rows[0] as { 'QUERY PLAN': Array<{ Plan: unknown }> })['QUERY PLAN'][0]!.Plan);
  });
