// The parts events' data are made of: the Request, its signers, its branding (application/events.ts).
import type { EventBranding, NotifiedSigner } from '@esign/contracts';
import { logoPath } from '../domain/branding.js';
import type { RequestSigner, SignatureRequest } from '../domain/signature-request.js';
import type { ExecutionUrl } from './views.js';
import type { RequestPageUrl } from './deps.js';
import { creatorOf, notified } from './notice-recipients.js';

export const signerIdOf = (request: SignatureRequest, signerRef: string): string =>
  request.signers.find((s) => s.signerRef === signerRef)?.signerId ?? signerRef;

/** What a signer's act names: the Request and the signer. */
export const signerAct = (request: SignatureRequest, signerRef: string) => ({
  request_id: request.id,
  signer_id: signerIdOf(request, signerRef),
  signer_ref: signerRef,
});

/** What a change of a draft's contracts names (ADR 3300): the Request and the template. */
export const ofContract = (
  request: SignatureRequest,
  contract: { readonly id: number; readonly name: string },
) => ({
  request_id: request.id,
  contract_id: contract.id,
  name: contract.name,
});

/** How a signer is reached, as events name it: their details and the channels chosen. */
export const reachedBy = (signer: Pick<RequestSigner, 'contact' | 'sendTo'>) => ({
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
export const aboutRequest = (request: SignatureRequest) => ({
  request_id: request.id,
  site: { id: request.siteId, name: request.siteName },
  ...brandingOf(request),
  contracts: request.contracts.map((c) => ({ id: c.id, name: c.name })),
});

/** A message asking signers to sign: the Request and, for each signer, their link. */
export const invitation = (
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
export const notice = (
  request: SignatureRequest,
  recipients: NotifiedSigner[],
  pageUrl: RequestPageUrl | undefined,
) => ({
  ...aboutRequest(request),
  signers: recipients.concat(creatorOf(request, pageUrl)),
  expires_at: request.expiresAt,
});
