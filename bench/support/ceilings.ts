/**
 * (4) The ceilings the product is judged against, measured in the same run and at the same
 * concurrency: a bare koa route, and the raw SQL of a create's rows with new signers in
 * each transaction and with the same two in each (the hot-row case).
 */
import type { EsignSystem } from '@esign/testing';
import { print } from './measure.js';
import { line, load } from './runs.js';
import { CONNECTIONS, SECONDS } from './settings.js';
import { rawSqlCeiling } from './sql-ceiling.js';

export const measureCeilings = async (
  system: EsignSystem,
  koaUrl: string,
  siteId: number,
  template: number,
) => {
  print('(4) ceilings, same machine, same run');
  const koa = await load(system, { connections: CONNECTIONS, pipelining: 1, url: koaUrl }, 200, SECONDS);
  line('bare koa JSON route', koa);
  const sql = (unique: boolean) =>
    rawSqlCeiling(system.databases.requests.url, siteId, template, unique, CONNECTIONS, SECONDS);
  const sqlCeiling = await sql(true);
  line(`raw SQL transaction of a create's rows (${CONNECTIONS} clients)`, sqlCeiling);
  const sqlHot = await sql(false);
  line(`the same, the same 2 signers in each`, sqlHot);
  print();
  return { koa, sqlCeiling, sqlHot };
};
