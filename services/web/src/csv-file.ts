import type { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type Koa from 'koa';

// The CSV files the application saves (ADRs 3750, 3780): RFC 4180 with CRLF line ends,
// UTF-8 with a byte order mark so spreadsheets read accents, and a cell a spreadsheet
// would run as a formula (`=`, `+`, `-`, `@`, a tab or a return first) written after an
// apostrophe: what signers type must never run on the sender's computer.

/** A field's value as a cell: a checkbox as `true` or `false`, none (yet) as an empty cell. */
export const cellOf = (value: string | boolean | null): string => (value === null ? '' : String(value));

/**
 * Rows as CSV: the file's start (its byte order mark and `columns` as its header) when
 * `columns` are given, else rows that follow it.
 */
export const csvRows = (rows: readonly (readonly string[])[], columns?: readonly string[]): string =>
  stringify(
    rows.map((row) => [...row]),
    {
      escape_formulas: true,
      record_delimiter: 'windows',
      ...(columns !== undefined && { bom: true, header: true, columns: [...columns] }),
    },
  );

/** Answers `body` as the CSV file `name`, saved rather than shown. */
export const answerCsv = (ctx: Koa.Context, name: string, body: string | Readable): void => {
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Content-Disposition', `attachment; filename="${name}"`);
  ctx.body = body;
};
