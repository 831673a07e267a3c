import { type DomainEvent, type EventBranding, type NotifiedSigner } from '@esign/contracts';
import { logoPath } from '../domain/branding.js';
import type { RequestEvent, RequestSigner, SignatureRequest } from '../domain/signature-request.js';
import type { Ids } from '../ports/ids.js';
import type { ExecutionUrl } from './views.js';
import type { CopyUrl, RequestPageUrl } from './deps.js';
import { COPY_LINK_DAYS } from '../domain/signer-notices.js';
import { carbonCopies, creatorOf, notified, notifiedByEmail } from './notice-recipients.js';

const signerIdOf = (request: SignatureRequest, signerRef: string): string =>
  request.signers.find((s) => s.signerRef === signerRef)?.signerId ?? signerRef;

/** What a signer's act names: the Request and the signer. */
const signerAct = (request: SignatureRequest, signerRef: string) => ({
  request_id: request.id,
  signer_id: signerIdOf(request, signerRef),
  signer_ref: signerRef,
});

/** What a change of a draft's contracts names (ADR 3300): the Request and the template. */
const ofContract = (request: SignatureRequest, contract: { readonly id: number; readonly name: string }) => ({
  request_id: request.id,
  contract_id: contract.id,
  name: contract.name,
});

/** How a signer is reached, as events name it: their details and the channels chosen. */
const reachedBy = (signer: Pick<RequestSigner, 'contact' | 'sendTo'>) => ({
  email: signer.contact.email,
  mobile_number: signer.contact.mobileNumber,
  send_to: { email: signer.sendTo.email, mobile_number: signer.sendTo.sms },
});

/**
 * The Site's branding for the notifier (ADR 2301): the display name travels as the site's
 * name, the logo as a path relative to the signer's link.
 */
const brandingOf = (request: SignatureRequest): { branding?: EventBranding } =>
  request.branding === undefined
    ? {}
    : {
        branding: {
          accent_color: request.branding.accentColor,
          reply_to: request.branding.replyTo,
          email_footer: request.branding.emailFooter,
          logo_path:
            request.branding.logoSha256 === null
              ? null
              : logoPath(request.siteId, request.branding.logoSha256),
        },
      };

/** What every message to signers says first: which Request, whose, and what is signed. */
const aboutRequest = (request: SignatureRequest) => ({
  request_id: request.id,
  site: { id: request.siteId, name: request.siteName },
  ...brandingOf(request),
  contracts: request.contracts.map((c) => ({ id: c.id, name: c.name })),
});

/** A message asking signers to sign: the Request and, for each signer, their link. */
const invitation = (
  request: SignatureRequest,
  notify: readonly RequestSigner[],
  executionUrl: ExecutionUrl,
) => ({
  ...aboutRequest(request),
  signers: notify.map((s) => notified(request, s, executionUrl)),
  expires_at: request.expiresAt,
  // What the sender wrote to the signers (ADR 3380) and the e-mails' subject (ADR 3400), in
  // every message asking them to sign.
  ...(request.message != null && { message: request.message }),
  ...(request.subject != null && { subject: request.subject }),
});

/** A notice (ADR 2002): the Request, its recipients and then the creating user, its expiry. */
const notice = (
  request: SignatureRequest,
  recipients: NotifiedSigner[],
  pageUrl: RequestPageUrl | undefined,
) => ({
  ...aboutRequest(request),
  signers: recipients.concat(creatorOf(request, pageUrl)),
  expires_at: request.expiresAt,
});

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
            previous: reachedBy(event.previous),
            corrected_by: event.by,
            link_replaced: event.linkReplaced,
            changed: [...event.changed],
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
              event.notify.map((s) => notifiedByEmail(request, s, deps.executionUrl)),
              deps.requestPageUrl,
            ),
            declined_by: signerIdOf(request, event.signerRef),
            reason: event.reason,
          },
        };
      case 'request.cancelled':
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
