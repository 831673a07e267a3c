import type {
  NotificationChannel,
  NotificationDelivered,
  NotificationFailed,
  NotifiedSigner,
  RequestReminded,
  RequestSent,
  RequestTurnStarted,
  SignerCodeRequested,
  NoticeCancelled,
  NoticeCompleted,
  NoticeDeclined,
  NoticeExpired,
  NoticeReplaced,
  NoticeReassigned,
} from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import { checkUsMobile, isEmail } from '@esign/contracts';

/** The events that ask the notifier to reach signers. */
export type NoticeEvent =
  | RequestSent
  | RequestReminded
  | RequestTurnStarted
  | SignerCodeRequested
  | NoticeCompleted
  | NoticeDeclined
  | NoticeCancelled
  | NoticeExpired
  | NoticeReplaced
  | NoticeReassigned;

export type Channel = NotificationChannel;

/** One message: at most one is ever accepted per key, whatever RabbitMQ redelivers. */
export interface DeliveryKey {
  readonly eventId: string;
  readonly signerRef: string;
  readonly channel: Channel;
}

export const keyText = (key: DeliveryKey): string => `${key.eventId}/${key.signerRef}/${key.channel}`;

/**
 * What to do for one signer on one channel. `Refuse` is a message we know cannot be
 * delivered before trying (e.g. a non-US mobile number): recorded and reported as failed.
 */
export type Target =
  | {
      readonly _tag: 'Send';
      readonly key: DeliveryKey;
      readonly signer: NotifiedSigner;
      /** The e-mail address, or the mobile number in E.164 (`+1` and 10 digits). */
      readonly recipient: string;
    }
  | {
      readonly _tag: 'Refuse';
      readonly key: DeliveryKey;
      readonly signer: NotifiedSigner;
      readonly recipient: string;
      readonly reason: string;
    };

const isHttpUrl = (s: string): boolean => {
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * The messages an event asks for: an e-mail to each signer with `send_to.email` and an
 * address, an SMS to each with `send_to.mobile_number` and a number. A signer without
 * an address on a selected channel gets nothing on it (the spec: no e-mail to a signer
 * identified only by a mobile number or a GUID). A signer listed twice is reached once.
 */
export const planDeliveries = (event: NoticeEvent): Target[] => {
  const targets = new Map<string, Target>();
  const add = (target: Target) => {
    const id = keyText(target.key);
    if (!targets.has(id)) targets.set(id, target);
  };
  for (const signer of event.data.signers) {
    const key = (channel: Channel): DeliveryKey => ({
      eventId: event.id,
      signerRef: signer.signer_ref,
      channel,
    });
    const badUrl = isHttpUrl(signer.request_url) ? undefined : 'the Execution URL is not an http(s) URL';
    if (signer.send_to.email && signer.email !== null && signer.email.trim() !== '') {
      const recipient = signer.email.trim();
      // One address, nothing a mailer could read as a list or a display name.
      const reason = isEmail(recipient) ? badUrl : 'not an e-mail address';
      add(
        reason === undefined
          ? { _tag: 'Send', key: key('email'), signer, recipient }
          : { _tag: 'Refuse', key: key('email'), signer, recipient: recipient.slice(0, 320), reason },
      );
    }
    if (signer.send_to.mobile_number && signer.mobile_number !== null && signer.mobile_number.trim() !== '') {
      // Canadian and Caribbean +1 numbers too (issue #18, MEDIUM 6): stored before the check.
      const checked = checkUsMobile(signer.mobile_number);
      const recipient = E.isRight(checked) ? `+${checked.right}` : signer.mobile_number;
      const reason = E.isRight(checked) ? badUrl : `not sent: ${checked.left}; SMS goes to US numbers only`;
      add(
        reason === undefined
          ? { _tag: 'Send', key: key('sms'), signer, recipient }
          : { _tag: 'Refuse', key: key('sms'), signer, recipient, reason },
      );
    }
  }
  return [...targets.values()];
};

/** What a provider said about one message. */
export type SendFailure =
  /** Worth another try later: SMTP 4xx or no connection, Twilio 429/5xx. */
  | { readonly _tag: 'Transient'; readonly error: string }
  /** Retrying cannot help: SMTP 5xx for the address, Twilio invalid number. */
  | { readonly _tag: 'Permanent'; readonly error: string };

export interface Accepted {
  readonly providerMessageId: string;
}

/** How one message ends: the two terminal states of a delivery. */
export type Settlement =
  | { readonly _tag: 'Delivered'; readonly providerMessageId: string }
  | {
      readonly _tag: 'Failed';
      readonly error: string;
      /** Set when the message was not sent because a daily quota is used up (ADR 1320). */
      readonly reason?: 'quota_exceeded';
      /**
       * Set when the failure is about this message or recipient, not an outage: `error` is
       * the provider's (or our own) answer about them, which the sender may read (ADR 3180).
       */
      readonly permanent?: true;
    };

export const failed = (error: string): Settlement => ({ _tag: 'Failed', error: error.slice(0, 1000) });

/** Refused for this message or recipient (SMTP 5xx to it, Twilio 4xx, an address we refuse). */
export const refused = (error: string): Settlement => ({
  _tag: 'Failed',
  error: error.slice(0, 1000),
  permanent: true,
});

const CHANNEL_NAMES: Record<Channel, string> = { email: 'e-mails', sms: 'text messages' };

/**
 * A message refused because a daily quota is used up: not sent, reported failed with
 * the reason, so the Request's sender sees `quota_exceeded` and why (ADR 1320).
 */
export const quotaExceeded = (
  channel: Channel,
  scope: 'site' | 'recipient',
  perDay: number,
  retryAfterSeconds: number,
): Settlement => {
  const whose = scope === 'site' ? "this Site's" : "this recipient's";
  const hours = Math.max(1, Math.ceil(retryAfterSeconds / 3600));
  return {
    _tag: 'Failed',
    reason: 'quota_exceeded',
    error: `not sent: ${whose} daily quota of ${perDay} ${CHANNEL_NAMES[channel]} is used up; room for another within ${hours} hour${hours === 1 ? '' : 's'}`,
  };
};

/** After the last allowed attempt a transient failure is final too. */
export const exhausted = (attempts: number, error: string): Settlement =>
  failed(`gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error}`);

export type OutcomeEvent = NotificationDelivered | NotificationFailed;

/** The address a message went to as its cause named it, which the requests service compares (ADR 3140). */
export const namedAddress = (target: Target): string | null =>
  target.key.channel === 'email' ? target.signer.email : target.signer.mobile_number;

/** The event that reports a settled message, for the Request's owner to see. */
export const outcomeEvent = (
  cause: NoticeEvent,
  target: Target,
  settlement: Settlement,
  id: string,
  at: Date,
): OutcomeEvent => {
  const to = namedAddress(target);
  const data = {
    request_id: cause.data.request_id,
    cause_event_id: cause.id,
    signer_id: target.signer.signer_id,
    signer_ref: target.signer.signer_ref,
    channel: target.key.channel,
    ...(to === null ? {} : { to }),
  };
  const common = {
    id,
    occurred_at: at.toISOString(),
    site_id: cause.site_id,
    aggregate_id: cause.data.request_id,
    // A test-mode Request's reports are marked like its other events, so whatever the
    // requests service tells its client of them is marked too (ADR 3180).
    ...(cause.test_mode === true && { test_mode: true as const }),
  };
  return settlement._tag === 'Delivered'
    ? {
        ...common,
        type: 'notification.delivered',
        data: { ...data, provider_message_id: settlement.providerMessageId },
      }
    : {
        ...common,
        type: 'notification.failed',
        data: {
          ...data,
          error: settlement.error,
          ...(settlement.reason === undefined ? {} : { reason: settlement.reason }),
          ...(settlement.permanent === true && { permanent: true as const }),
        },
      };
};

/**
 * A message its provider accepted, as the deliveries table keeps it: what a later report
 * from the provider about it (ADR 3880) is told of.
 */
export interface AcceptedMessage {
  readonly causeEventId: string;
  readonly requestId: string;
  readonly siteId: number;
  readonly signerId: string;
  readonly signerRef: string;
  readonly channel: DeliveryKey['channel'];
  /** The address as the cause named it (ADR 3140), or null when it named none. */
  readonly address: string | null;
  readonly providerMessageId: string;
}

/**
 * The report of a message its provider accepted and then could not deliver (ADR 3880):
 * `notification.failed`, as a refusal at sending would have been, `permanent` when the
 * provider's reason is about this recipient, so the sender is told it.
 */
export const undeliveredEvent = (
  message: AcceptedMessage,
  failure: { readonly error: string; readonly permanent: boolean },
  id: string,
  at: Date,
): NotificationFailed => ({
  id,
  type: 'notification.failed',
  occurred_at: at.toISOString(),
  site_id: message.siteId,
  aggregate_id: message.requestId,
  data: {
    request_id: message.requestId,
    cause_event_id: message.causeEventId,
    signer_id: message.signerId,
    signer_ref: message.signerRef,
    channel: message.channel,
    ...(message.address === null ? {} : { to: message.address }),
    provider_message_id: message.providerMessageId,
    error: failure.error,
    ...(failure.permanent && { permanent: true as const }),
  },
});
