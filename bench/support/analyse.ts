/**
 * Gives the planner the statistics a production database would have by now. This
 * machine's Postgres runs with autovacuum off, so the bench's fresh databases are never
 * analysed on their own. Without statistics, Postgres plans the send's guarded write
 * afresh on every call (a generic plan over an unanalysed table looks dear; ADR 2820),
 * and keeps the generic plan it made for a create's read over near-empty tables however
 * large they grow (nothing invalidates it; ADR 2830). A production server's autovacuum
 * analyses a table after its first 50 changed rows, then after every tenth of it.
 */
import type { EsignSystem } from '@esign/testing';
import { queryOnce } from './measure.js';

export const analyse = async (system: EsignSystem): Promise<void> => {
  for (const database of Object.values(system.databases)) await queryOnce(database.url, 'ANALYZE');
};
