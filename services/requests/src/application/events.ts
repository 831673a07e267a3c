import type { DomainEvent } from '@esign/contracts';
import type { RequestEvent, SignatureRequest } from '../domain/signature-request.js';
import type { Ids } from '../ports/ids.js';
import type { ExecutionUrl } from './views.js';
import type { CopyUrl, RequestPageUrl } from './deps.js';
import { COPY_LINK_DAYS } from '../domain/signer-notices.js';
import { carbonCopies, notified, notifiedByEmail, toldOfDecline } from './notice-recipients.js';
import {
  aboutRequest,
  invitation,
  notice,
  ofContract,
  reachedBy,
  signerAct,
  signerIdOf,
} from './event-data.js';

/** The envelopes of a transition's events, stamped with fresh ids and the transition's time. */
export const envelopes = (
  deps: {
    readonly ids: Ids;
    readonly executionUrl: ExecutionUrl;
    readonly copyUrl?: CopyUrl;
    readonly requestPageUrl?: RequestPageUrl;
  },
  request: SignatureRequest,
  events: readonly RequestEvent[],
): DomainEvent[] =>
  events.map((event): DomainEvent => {
    const head = {
      id: deps.ids.eventId(),
      occurred_at: request.updatedAt,
      site_id: request.siteId,
      aggregate_id: request.id,
      // Every event of a test-mode Request says so: the notifier keeps its messages (issue #22).
      ...(request.testMode && { test_mode: true as const }),
    };
    switch (event.type) {
      case 'request.created':
        return {
          ...head,
          type: event.type,
          data: {
            request_id: request.id,
            state: request.state,
            contracts: request.contracts.map((c) => c.id),
            signer_ids: request.signers.map((s) => s.signerId),
          },
        };
      case 'request.sent':
        return {
          ...head,
          type: event.type,
          data: invitation(request, event.notify, deps.executionUrl),
        };
      case 'request.reminded':
        return {
          ...head,
          type: event.type,
          data: {
            ...invitation(request, event.notify, deps.executionUrl),
            // Only when the schedule sent it: consumers that do not know the flag see what they did (ADR 3130).
            ...(event.automatic === true && { automatic: true as const }),
            ...(event.readdressed === true && { readdressed: true as const }),
            ...(event.lastDay === true && { last_day: true as const }),
            // A replacement's note to its new signer, in place of the Request's message (ADR 3550).
            ...(event.message !== undefined && { message: event.message }),
            // Who asked them to sign in their place, and what they wrote (ADR 3630).
            ...(event.askedBy !== undefined && { asked_by: event.askedBy.who }),
            ...(event.askedBy?.note !== undefined && { note: event.askedBy.note }),
          },
        };
      case 'request.turn_started':
        return {
          ...head,
          type: event.type,
          data: { ...invitation(request, event.notify, deps.executionUrl), order: event.order },
        };
      case 'signer.code_requested': {
        const signer = request.signers.find((s) => s.signerRef === event.signerRef)!;
        return {
          ...head,
          type: event.type,
          data: {
            ...aboutRequest(request),
            // The one signer, on the one channel the code goes to.
            signers: [
              {
                ...notified(request, signer, deps.executionUrl),
                send_to: { email: event.channel === 'email', mobile_number: event.channel === 'sms' },
              },
            ],
            expires_at: request.expiresAt,
            code: event.code,
            code_expires_at: event.expiresAt,
          },
        };
      }
      case 'request.viewed':
        return {
          ...head,
          type: event.type,
          data: { ...signerAct(request, event.signerRef), viewed_at: event.at },
        };
      case 'request.updated':
        return {
          ...head,
          type: event.type,
          data: {
            request_id: request.id,
            expires_at: request.expiresAt,
            reminder_interval_days: request.reminderIntervalDays,
            next_reminder_at: request.nextReminderAt,
            changed: [...event.changed],
          },
        };
      case 'request.signer_added':
        return {
          ...head,
          type: event.type,
          data: {
            ...signerAct(request, event.signerRef),
            ...reachedBy(request.signers.find((s) => s.signerRef === event.signerRef)!),
          },
        };
      case 'request.contract_added':
        return {
          ...head,
          type: event.type,
          data: { ...ofContract(request, event.contract), added_fields: [...event.addedFields] },
        };
      case 'request.contract_removed':
        return {
          ...head,
          type: event.type,
          data: {
            ...ofContract(request, event.contract),
            removed_fields: [...event.removedFields],
            removed_render_data: [...event.removedRenderData],
          },
        };
      case 'request.contracts_reordered':
        return {
          ...head,
          type: event.type,
          data: {
            request_id: request.id,
            contracts: request.contracts.map((c) => ({ id: c.id, name: c.name })),
          },
        };
      case 'request.signer_removed':
        return {
          ...head,
          type: event.type,
          data: {
            request_id: request.id,
            signer_id: event.signer.signerId,
            signer_ref: event.signer.signerRef,
            unassigned_fields: [...event.unassignedFields],
          },
        };
      case 'request.signer_updated':
        return {
          ...head,
          type: event.type,
          data: {
            ...signerAct(request, event.signerRef),
            ...reachedBy(request.signers.find((s) => s.signerRef === event.signerRef)!),
            previous: {
              ...(event.previous.signerId !== undefined && { signer_id: event.previous.signerId }),
              ...reachedBy(event.previous),
            },
            corrected_by: event.by,
            link_replaced: event.linkReplaced,
            changed: [...event.changed],
            ...(event.previousNotified === true && { previous_notified: true as const }),
          },
        };
      case 'notice.completed': {
        const expires = new Date(
          Date.parse(request.completedAt ?? request.updatedAt) + COPY_LINK_DAYS * 86_400_000,
        ).toISOString();
        const copy =
          deps.copyUrl ??
          ((id: string, ref: string) =>
            deps.executionUrl(id, ref, request.signers.find((s) => s.signerRef === ref)?.link.version ?? 0));
        const signers = event.notify.map((s) => ({
          ...notifiedByEmail(request, s, deps.executionUrl),
          request_url: copy(request.id, s.signerRef, expires),
        }));
        return {
          ...head,
          type: event.type,
          data: {
            ...notice(
              request,
              signers.concat(carbonCopies(request, (ref) => copy(request.id, ref, expires))),
              deps.requestPageUrl,
            ),
            copy_expires_at: expires,
          },
        };
      }
      case 'notice.declined':
        return {
          ...head,
          type: event.type,
          data: {
            ...notice(
              request,
              event.notify.map((s) => toldOfDecline(request, s, deps.executionUrl)),
              deps.requestPageUrl,
            ),
            declined_by: signerIdOf(request, event.signerRef),
            reason: event.reason,
          },
        };
      case 'notice.cancelled':
        return {
          ...head,
          type: event.type,
          data: {
            // The sender cancelled: only the signers are told, not the creating user (ADR 3500).
            ...notice(
              request,
              event.notify.map((s) => notified(request, s, deps.executionUrl)),
              undefined,
            ),
            ...(event.reason !== undefined && { reason: event.reason }),
          },
        };
      case 'notice.replaced':
        // The replaced signer alone, as they were invited; not the creating user (ADR 3550).
        return {
          ...head,
          type: event.type,
          data: notice(request, [notified(request, event.replaced, deps.executionUrl)], undefined),
        };
      case 'notice.reassigned':
        // The creating user alone, with the Request's page (ADR 3560).
        return {
          ...head,
          type: event.type,
          data: {
            ...notice(request, [], deps.requestPageUrl),
            reassigned_by: event.from,
            reassigned_to: event.to,
            ...(event.note !== undefined && { note: event.note }),
          },
        };
      case 'notice.expired':
        // The creating user alone, with the Request's page (ADR 3520).
        return { ...head, type: event.type, data: notice(request, [], deps.requestPageUrl) };
      case 'request.cancelled':
        return {
          ...head,
          type: event.type,
          data: {
            request_id: request.id,
            previous_state: event.previous,
            ...(event.reason !== undefined && { reason: event.reason }),
            ...(event.signersNotified === true && { signers_notified: true as const }),
          },
        };
      case 'request.expired':
        return {
          ...head,
          type: event.type,
          data: { request_id: request.id, previous_state: event.previous },
        };
      case 'request.signed':
        return { ...head, type: event.type, data: signerAct(request, event.signerRef) };
      case 'request.declined':
        return {
          ...head,
          type: event.type,
          data: { ...signerAct(request, event.signerRef), reason: event.reason },
        };
      case 'request.completed':
        return { ...head, type: event.type, data: { request_id: request.id } };
    }
  });
