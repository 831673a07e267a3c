import * as E from 'fp-ts/lib/Either.js';
import {
  BulkSendRow,
  decode,
  type CreateBulkSendBody,
  type CreateRequestBody,
  type FieldEntry,
} from '@esign/contracts';
import { at, type FieldError } from './paths.js';

/** Where one row of a bulk send stands (issue #22, ADR 2201). */
/** `cancelled`: left unmade, its bulk send cancelled before a worker took it (ADR 3450). */
export type RowStatus = 'pending' | 'created' | 'sent' | 'failed' | 'cancelled';

export interface BulkRow {
  readonly row: number;
  readonly status: RowStatus;
  readonly requestId: string | null;
  readonly errors: readonly FieldError[];
}

/** What every row of a bulk send shares. */
export type BulkShared = Omit<CreateBulkSendBody, 'rows'>;

/** A row's problem, at its place in the bulk body: `rows[7].signers[0].signer_id`. */
export const rowErrors = (row: number, errors: readonly FieldError[]): FieldError[] =>
  errors.map((e) => ({
    path: e.path === '(body)' ? at('rows', row) : `${at('rows', row)}.${e.path}`,
    message: e.message,
  }));

/** The row's fields over the shared ones, by name: a row's entry replaces the shared entry of that name. */
const mergeFields = (shared: readonly FieldEntry[], own: readonly FieldEntry[]): FieldEntry[] => {
  const named = new Set(own.map((f) => f.name));
  return [...own, ...shared.filter((f) => !named.has(f.name))];
};

/**
 * The create body of one row: the shared contracts, redirect URL, expiry, reminders, test
 * mode, message and e-mail subject, the row's signers, render_data and title, and the
 * fields merged. A row that
 * does not decode answers its errors at `rows[i]…`.
 */
export const rowBody = (
  shared: BulkShared,
  index: number,
  raw: unknown,
): E.Either<FieldError[], CreateRequestBody> => {
  const decoded = decode(BulkSendRow)(raw);
  if (E.isLeft(decoded)) return E.left(rowErrors(index, decoded.left));
  const row = decoded.right;
  const fields = mergeFields(shared.fields ?? [], row.fields ?? []);
  return E.right({
    contracts: shared.contracts,
    signers: row.signers,
    ...(fields.length > 0 && { fields }),
    ...(row.render_data !== undefined && { render_data: row.render_data }),
    ...(row.title !== undefined && { title: row.title }),
    ...(shared.redirect_url !== undefined && { redirect_url: shared.redirect_url }),
    ...(shared.expires_at !== undefined && { expires_at: shared.expires_at }),
    ...(shared.reminder_interval_days !== undefined && {
      reminder_interval_days: shared.reminder_interval_days,
    }),
    ...(shared.test_mode !== undefined && { test_mode: shared.test_mode }),
    ...(shared.message !== undefined && { message: shared.message }),
    ...(shared.subject !== undefined && { subject: shared.subject }),
    ...(shared.allow_reassign !== undefined && { allow_reassign: shared.allow_reassign }),
  });
};

export interface Progress {
  readonly total: number;
  readonly created: number;
  readonly sent: number;
  readonly failed: number;
  readonly cancelled: number;
  readonly pending: number;
}

/** Counts over the rows: a failed row whose Request exists (it could not be sent) counts as created too. */
export const progressOf = (rows: readonly BulkRow[]): Progress => ({
  total: rows.length,
  created: rows.filter((r) => r.requestId !== null).length,
  sent: rows.filter((r) => r.status === 'sent').length,
  failed: rows.filter((r) => r.status === 'failed').length,
  cancelled: rows.filter((r) => r.status === 'cancelled').length,
  pending: rows.filter((r) => r.status === 'pending').length,
});
