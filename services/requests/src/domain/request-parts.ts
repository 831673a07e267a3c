// The leaf types of a Request's model (request-model.ts), which depend on nothing of it.

export type RequestState = 'draft' | 'sent' | 'completed' | 'cancelled' | 'expired' | 'declined';
export type SignerState = 'pending' | 'signed' | 'declined';
export type Channel = 'email' | 'sms';

/** The last outcome the notifier reported for one channel of one signer. */
export interface Delivery {
  /** `quota_exceeded`: not sent, a daily message quota was used up (ADR 1320). */
  readonly outcome: 'delivered' | 'failed' | 'quota_exceeded';
  readonly at: string;
  readonly eventId: string;
  readonly error: string | null;
}

export interface RequestField {
  readonly name: string;
  readonly defaultValue: string | boolean | null;
  /** The signer_id of the signer who completes it; null until assigned. */
  readonly assignedTo: string | null;
}

export interface ContractRef {
  readonly id: number;
  readonly name: string;
}

/** The user who created a Request, as the gateway vouched for them then (ADR 2003). */
export interface RequestCreator {
  readonly userId: string;
  /** Their e-mail address at creation; null when the principal carried none. */
  readonly email: string | null;
}
