import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Channel } from '../domain/delivery.js';

/** One message about to go out, charged to its Site's and its recipient's daily quotas. */
export interface QuotaCharge {
  readonly siteId: number;
  readonly channel: Channel;
  /** The e-mail address or the E.164 number. */
  readonly recipient: string;
}

export type QuotaScope = 'site' | 'recipient';

export type QuotaDecision =
  | { readonly _tag: 'Allowed' }
  | {
      readonly _tag: 'Exhausted';
      /** Which quota is used up (the Site's is named first when both are). */
      readonly scope: QuotaScope;
      /** Its size: messages on this channel per day. */
      readonly perDay: number;
      /** When one message fits again. */
      readonly retryAfterSeconds: number;
    };

/**
 * Daily message quotas shared by every notifier replica (ADR 1320). A charge takes one
 * message from the Site's and the recipient's allowance together, or from neither.
 */
export type MessageQuota = (charge: QuotaCharge) => TE.TaskEither<never, QuotaDecision>;
