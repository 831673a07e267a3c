import * as t from 'io-ts';
import { EventBranding } from './branding.js';
import { Channels } from './signer-events.js';

/**
 * What the events asking signers to sign carry (`request.sent`, `request.reminded`,
 * `request.turn_started` and the notices built on them), to the notifier and, without the
 * signers' links, to webhooks.
 */

export const ContractRef = t.type({ id: t.number, name: t.string });

export const SiteRef = t.type({ id: t.number, name: t.string });

/** Who a message goes to and by which channels: the same for the notifier and webhooks. */
const signerReached = {
  signer_id: t.string,
  signer_ref: t.string,
  email: t.union([t.string, t.null]),
  mobile_number: t.union([t.string, t.null]),
  send_to: Channels,
};

/** What every notice names: the Request, its Site and contracts, and `signers` as given. */
const notice = <S extends t.Mixed>(signer: S) => ({
  request_id: t.string,
  site: SiteRef,
  contracts: t.array(ContractRef),
  signers: t.array(signer),
  expires_at: t.union([t.string, t.null]),
});

/**
 * What the notifier needs to reach one signer, and nothing about the others. `locale`:
 * the language to write to them in (a supported one, ADR 2320); events from before it
 * existed lack it and are written in English.
 */
export const NotifiedSigner = t.intersection([
  t.type({ ...signerReached, request_url: t.string }),
  t.partial({ locale: t.string }),
]);
export type NotifiedSigner = t.TypeOf<typeof NotifiedSigner>;

/** What the notifier needs to tell signers about a Request: who sends, what, and where to sign. */
export const NotificationData = t.intersection([
  t.type(notice(NotifiedSigner)),
  /**
   * The Site's branding (ADR 2301); absent: neutral messages. `message`: the sender's
   * message to the signers (ADR 3380), `subject`: their e-mails' subject (ADR 3400);
   * absent: none (and on events from before them).
   */
  t.partial({ branding: EventBranding, message: t.string, subject: t.string }),
]);

/**
 * `request.sent` and `request.reminded` as webhooks deliver them: each signer without
 * `request_url`. An Execution URL is a credential; a webhook delivery is kept for days
 * and leaves the platform, so it carries the signer's reference and the client reads the
 * URL from `GET /v1.1/requests/:id` when it needs it (ADR 1321).
 */
export const WebhookNotificationData = t.type(notice(t.type(signerReached)));
export type WebhookNotificationData = t.TypeOf<typeof WebhookNotificationData>;

/**
 * What `request.reminded` may say beside its signers: `automatic: true` when no call sent
 * it (ADR 3130); `readdressed: true` when it carries a new link to a signer whose address or
 * number the sender corrected (ADR 3140), the first message that address gets, so it reads
 * as an invitation (ADR 3420); `last_day: true` when it was sent in the last day before
 * `expires_at`, the expiry warning among them (ADR 3470).
 */
export const ReminderFlags = t.partial({
  automatic: t.literal(true),
  readdressed: t.literal(true),
  last_day: t.literal(true),
});

/** `request.reminded` as webhooks deliver it. */
export const WebhookRemindedData = t.intersection([WebhookNotificationData, ReminderFlags]);
