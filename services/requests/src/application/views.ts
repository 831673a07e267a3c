import type {
  BulkSendSummary,
  BulkSendView,
  ContractSummary,
  ContractView,
  NotificationStatus,
  RequestView,
} from '@esign/contracts';
import { progressOf, type BulkRow } from '../domain/bulk-send.js';
import type { ContractTemplate, TemplateWithHtml } from '../domain/contract-template.js';
import { fieldView } from '../domain/field-views.js';
import type { Delivery, RequestSigner, SignatureRequest } from '../domain/signature-request.js';
import { currentOrder, hasTurn } from '../domain/signing-order.js';
import type { BulkSendRecord, ListedBulkSend } from '../ports/bulk-send-store.js';

/** Builds a signer's Execution URL; the signature makes it unforgeable. */
export type ExecutionUrl = (requestId: string, signerRef: string, version: number) => string;

const status = (chosen: boolean, address: string | null, delivery: Delivery | null): NotificationStatus =>
  !chosen ? 'not_requested' : address === null ? 'no_address' : (delivery?.outcome ?? 'pending');

const notifications = (s: RequestSigner) => ({
  email: status(s.sendTo.email, s.contact.email, s.delivery.email),
  sms: status(s.sendTo.sms, s.contact.mobileNumber, s.delivery.sms),
});

export const requestView = (request: SignatureRequest, executionUrl: ExecutionUrl): RequestView => ({
  id: request.id,
  site_id: request.siteId,
  state: request.state,
  contracts: request.contracts.map((c) => c.id),
  signers: request.signers.map((s) => ({
    signer_id: s.signerId,
    signer_ref: s.signerRef,
    email: s.contact.email,
    mobile_number: s.contact.mobileNumber,
    send_to: { email: s.sendTo.email, mobile_number: s.sendTo.sms },
    state: s.state,
    request_url: executionUrl(request.id, s.signerRef, s.link.version),
    signed_at: s.signedAt,
    declined_at: s.declinedAt,
    notifications: notifications(s),
    order: s.order,
    turn: hasTurn(request, s),
    authentication: s.authentication === null ? null : { method: s.authentication },
    locale: s.locale ?? null,
    viewed_at: s.viewedAt,
  })),
  fields: request.fields.map((f) => ({
    name: f.name,
    default_value: f.defaultValue,
    assigned_to: f.assignedTo,
  })),
  render_data: { ...request.renderData },
  redirect_url: request.redirectUrl,
  expires_at: request.expiresAt,
  created_at: request.createdAt,
  updated_at: request.updatedAt,
  sent_at: request.sentAt,
  cancelled_at: request.cancelledAt,
  expired_at: request.expiredAt,
  completed_at: request.completedAt,
  declined_at: request.declinedAt,
  last_reminded_at: request.lastRemindedAt,
  remind_count: request.remindCount,
  reminder_interval_days: request.reminderIntervalDays,
  next_reminder_at: request.nextReminderAt,
  current_order: request.state === 'sent' ? currentOrder(request) : null,
  test_mode: request.testMode,
  cc: [...(request.cc ?? [])],
  message: request.message ?? null,
  title: request.title ?? null,
  subject: request.subject ?? null,
  allow_reassign: request.allowReassign ?? false,
  copied_from: request.copiedFrom ?? null,
  bulk_send_id: request.bulkSendId ?? null,
});

export const contractSummary = (t: ContractTemplate): ContractSummary => ({
  id: t.id,
  site_id: t.siteId,
  name: t.name,
  type: t.kind,
  state: t.state,
  tokens: [...t.tokens],
  fields: t.fields.map(fieldView),
  document: { size_bytes: t.document.sizeBytes, sha256: t.document.sha256 },
  created_at: t.createdAt,
  updated_at: t.updatedAt,
  published_at: t.publishedAt,
  archived_at: t.archivedAt,
});

export const contractView = (t: TemplateWithHtml): ContractView => ({
  ...contractSummary(t),
  html: t.html,
});

/** How far a bulk send got, as its read and its Site's list both show it (ADRs 2201, 3440, 3450). */
const bulkProgress = (bulk: ListedBulkSend['bulk'], progress: ListedBulkSend['progress']) => ({
  id: bulk.id,
  site_id: bulk.siteId,
  state: bulk.state,
  send: bulk.send,
  test_mode: bulk.testMode,
  rows_total: bulk.rowsTotal,
  created: progress.created,
  sent: progress.sent,
  failed: progress.failed,
  cancelled: progress.cancelled,
  cancelled_at: bulk.cancelledAt,
});

/** A bulk send as its Site's list shows it (ADR 3440). */
export const bulkSendSummary = ({ bulk, progress, contracts }: ListedBulkSend): BulkSendSummary => ({
  ...bulkProgress(bulk, progress),
  contracts: contracts.map((c) => ({ id: c.id, name: c.name })),
  created_at: bulk.createdAt,
  completed_at: bulk.completedAt,
});

export const bulkSendView = (bulk: BulkSendRecord, rows: readonly BulkRow[]): BulkSendView => {
  return {
    ...bulkProgress(bulk, progressOf(rows)),
    failures: rows
      .filter((r) => r.status === 'failed')
      .map((r) => ({ row: r.row, request_id: r.requestId, errors: [...r.errors] })),
    requests: rows.flatMap((r) => (r.requestId === null ? [] : [{ row: r.row, request_id: r.requestId }])),
    created_at: bulk.createdAt,
    completed_at: bulk.completedAt,
  };
};
