import { parse, type CsvError } from 'csv-parse/sync';
import { LIMITS, MAX_BULK_ROWS } from '@esign/contracts';

/** A bulk-send row as the API receives it (`rows[i]` of `POST /v1.1/sites/:id/bulk_sends`). */
export interface CsvRow {
  readonly signers: readonly {
    readonly signer_id: string;
    readonly signer?: { readonly email: string };
    readonly send_to?: { readonly email: true };
  }[];
  readonly render_data?: Readonly<Record<string, string>>;
  readonly fields?: readonly { readonly name: string; readonly default_value: string }[];
  /** The Request's own title (ADR 3390). */
  readonly title?: string;
}

/**
 * Something wrong in the file. `row` is the 0-based index the API gives the row
 * (`rows[row]`, on CSV line `row + 2`); none for the file or its header. A `blocking`
 * problem keeps the file from being sent; the others are rows the API will refuse alone.
 */
export interface CsvProblem {
  readonly row?: number;
  readonly line?: number;
  readonly column?: string;
  readonly message: string;
  readonly blocking: boolean;
}

export interface CsvMapping {
  readonly rows: readonly CsvRow[];
  readonly problems: readonly CsvProblem[];
  /** True when nothing may be sent (a CSV error, a bad header, no rows or too many). */
  readonly blocked: boolean;
}

type Column =
  | { readonly kind: 'signer_id' | 'signer_email'; readonly signer: number }
  | { readonly kind: 'render_data' | 'field'; readonly name: string }
  | { readonly kind: 'title' };

const SIGNER = /^signer_(id|email)(?:_([1-9][0-9]?))?$/;

const columnOf = (header: string): Column | undefined => {
  const signer = SIGNER.exec(header);
  if (signer) return { kind: `signer_${signer[1] as 'id' | 'email'}`, signer: Number(signer[2] ?? '1') };
  if (header === 'title') return { kind: 'title' };
  for (const kind of ['render_data', 'field'] as const)
    if (header.startsWith(`${kind}.`) && header.length > kind.length + 1)
      return { kind, name: header.slice(kind.length + 1) };
  return undefined;
};

const headerProblems = (header: readonly string[]): CsvProblem[] => {
  const problems: CsvProblem[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    const column = columnOf(name);
    if (column === undefined)
      problems.push({
        line: 1,
        column: name,
        message: `"${name}" is not a column this page reads (signer_id, signer_email, render_data.<token>, field.<name>, title).`,
        blocking: true,
      });
    const key = column !== undefined && 'signer' in column ? `${column.kind}_${column.signer}` : name;
    if (seen.has(key))
      problems.push({
        line: 1,
        column: name,
        message: `"${name}" appears twice in the header.`,
        blocking: true,
      });
    seen.add(key);
  }
  if (!header.some((name) => columnOf(name)?.kind === 'signer_id'))
    problems.push({ line: 1, message: 'The header has no signer_id column.', blocking: true });
  return problems;
};

/** What the API would say of a row's title (`RequestTitle`): too long, or not one line. */
const titleProblem = (title: string): string | undefined => {
  if (title.length > LIMITS.title) return `must be at most ${LIMITS.title} characters`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(title)) return 'must be one line, without control characters';
  return undefined;
};

/** One record as a row, with the problems the API would find in it too. */
const rowOf = (
  header: readonly string[],
  record: readonly string[],
  row: number,
  tokens: ReadonlySet<string> | undefined,
): { row: CsvRow; problems: CsvProblem[] } => {
  const ids = new Map<number, string>();
  const emails = new Map<number, string>();
  const renderData: Record<string, string> = {};
  const fields: { name: string; default_value: string }[] = [];
  const problems: CsvProblem[] = [];
  let title: string | undefined;
  header.forEach((name, i) => {
    const value = (record[i] ?? '').trim();
    const column = columnOf(name);
    if (value === '' || column === undefined) return;
    if (column.kind === 'signer_id' || column.kind === 'signer_email')
      (column.kind === 'signer_id' ? ids : emails).set(column.signer, value);
    else if (column.kind === 'render_data') {
      renderData[column.name] = value;
      if (tokens !== undefined && !tokens.has(column.name))
        problems.push({
          row,
          line: row + 2,
          column: name,
          message: `rows[${row}].render_data.${column.name}: the chosen contracts have no token "${column.name}".`,
          blocking: false,
        });
    } else if (column.kind === 'field') fields.push({ name: column.name, default_value: value });
    else {
      title = value;
      const wrong = titleProblem(value);
      if (wrong !== undefined)
        problems.push({
          row,
          line: row + 2,
          column: name,
          message: `rows[${row}].title: ${wrong}.`,
          blocking: false,
        });
    }
  });
  for (const n of emails.keys())
    if (!ids.has(n))
      problems.push({
        row,
        line: row + 2,
        column: n === 1 ? 'signer_email' : `signer_email_${n}`,
        message: `rows[${row}]: an e-mail address without its signer_id.`,
        blocking: false,
      });
  const signers = [...ids.entries()]
    .sort(([a], [b]) => a - b)
    .map(([n, id]) => {
      const email = emails.get(n);
      return email === undefined
        ? { signer_id: id }
        : { signer_id: id, signer: { email }, send_to: { email: true as const } };
    });
  if (signers.length === 0)
    problems.push({
      row,
      line: row + 2,
      message: `rows[${row}].signers: the row has no signer_id.`,
      blocking: false,
    });
  return {
    row: {
      signers,
      ...(Object.keys(renderData).length > 0 ? { render_data: renderData } : {}),
      ...(fields.length > 0 ? { fields } : {}),
      ...(title === undefined ? {} : { title }),
    },
    problems,
  };
};

/**
 * A CSV file (a header row, then one bulk-send row per record) as the rows the API
 * takes, with every problem found: CSV errors by line and column, header mistakes,
 * rows without a signer, render_data tokens none of the chosen contracts has
 * (`tokens`, when known), titles the API would refuse, and more than MAX_BULK_ROWS rows.
 */
export const mapCsv = (input: string | Buffer, tokens?: ReadonlySet<string>): CsvMapping => {
  const problems: CsvProblem[] = [];
  let records: string[][];
  try {
    records = parse(input, {
      bom: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        if (error === undefined) return;
        const lines = typeof error.lines === 'number' ? error.lines : undefined;
        const column =
          typeof error.column === 'number' || typeof error.column === 'string' ? error.column : undefined;
        problems.push({
          ...(lines === undefined ? {} : { line: lines }),
          ...(column === undefined ? {} : { column: String(column) }),
          message: error.message,
          blocking: true,
        });
      },
    });
  } catch (error) {
    problems.push({ message: `The file cannot be read as CSV: ${(error as Error).message}`, blocking: true });
    return { rows: [], problems, blocked: true };
  }
  const [header, ...data] = records;
  if (header === undefined) {
    problems.push({
      message: 'The file is empty: it needs a header row and at least one row.',
      blocking: true,
    });
    return { rows: [], problems, blocked: true };
  }
  const names = header.map((h) => h.trim());
  const bad = headerProblems(names);
  // A header that cannot be read says nothing reliable about the rows under it.
  if (bad.length > 0) return { rows: [], problems: [...problems, ...bad], blocked: true };
  if (data.length === 0) problems.push({ message: 'The file has a header but no rows.', blocking: true });
  if (data.length > MAX_BULK_ROWS)
    problems.push({
      message: `The file has ${data.length} rows; one bulk send takes at most ${MAX_BULK_ROWS}.`,
      blocking: true,
    });
  const rows: CsvRow[] = [];
  data.forEach((record, i) => {
    const mapped = rowOf(names, record, i, tokens);
    rows.push(mapped.row);
    problems.push(...mapped.problems);
  });
  return { rows, problems, blocked: problems.some((p) => p.blocking) };
};
