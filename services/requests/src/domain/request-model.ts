// The data of a Request and what its transitions answer (the functions are in signature-request.ts).
import type { RequestUpdatePart, SignerUpdatePart } from '@esign/contracts';
import type { FieldError } from './paths.js';
import type { Contact, SiteSigner } from './signer.js';
import type { AuthMethod, Challenge } from './signer-authentication.js';
import type { SiteBranding } from './branding.js';
import type {
  Channel,
  ContractRef,
  Delivery,
  RequestCreator,
  RequestField,
  RequestState,
  SignerState,
} from './request-parts.js';

export type * from './request-parts.js';

export interface RequestSigner {
  readonly signerId: string;
  /** Opaque, per Request: what an Execution URL names instead of the client's signer_id. */
  readonly signerRef: string;
  readonly contact: Contact;
  /** The channels the client chose; `notifiableChannels` says which of them can be used. */
  readonly sendTo: { readonly email: boolean; readonly sms: boolean };
  /** Place in the signing order (lowest first, equal numbers in parallel); null: no order (ADR 2000). */
  readonly order: number | null;
  /** How the signer proves who they are before the contract is shown; null: no check (ADR 2001). */
  readonly authentication: AuthMethod | null;
  /** When the signer first opened their live Execution URL (ADR 2002). */
  readonly viewedAt: string | null;
  /** The language the client chose for this signer (canonical BCP 47); absent or null: none (ADR 2320). */
  readonly locale?: string | null;
  readonly state: SignerState;
  readonly signedAt: string | null;
  readonly declinedAt: string | null;
  readonly delivery: { readonly email: Delivery | null; readonly sms: Delivery | null };
  /**
   * The signer's Execution URL: its version (0 until the sender reissues it; only the
   * current version opens) and when it was issued (null: when the Request was sent),
   * from which it expires (ADR 1321).
   */
  readonly link: { readonly version: number; readonly issuedAt: string | null };
  /**
   * The first link version of the signer in this place: a later one when someone else took
   * the place of the signer it was sent to (ADR 3550), whose older links then say so.
   * Absent or 0: every version is theirs.
   */
  readonly placedAtVersion?: number;
}

export interface SignatureRequest {
  readonly id: string;
  /** Who created it; absent or null for Requests made before this was recorded. */
  readonly creator?: RequestCreator | null;
  readonly siteId: number;
  /**
   * What signers are told who is asking: the Site's branded display name when it has one
   * (ADR 2301), else the Site's name when the Request was made.
   */
  readonly siteName: string;
  /** The site's default language when the Request was made (ADR 2320); absent or null: none. */
  readonly siteLocale?: string | null;
  /** The Site's branding as read with the Request; absent: none (neutral pages and messages). */
  readonly branding?: SiteBranding;
  readonly state: RequestState;
  readonly contracts: readonly ContractRef[];
  readonly signers: readonly RequestSigner[];
  readonly fields: readonly RequestField[];
  readonly renderData: Readonly<Record<string, string>>;
  /** Addresses sent a copy of the executed document once everyone has signed (ADR 3230); absent: none. */
  readonly cc?: readonly string[];
  /** The sender's message to the signers (ADR 3380); absent or null: none. */
  readonly message?: string | null;
  /** The sender's own name for the Request (ADR 3390); absent or null: none. */
  readonly title?: string | null;
  /** The subject of the signers' invitation e-mails (ADR 3400); absent or null: the usual one. */
  readonly subject?: string | null;
  /** The Request this one was copied from (ADR 3410); absent or null: not a copy. */
  readonly copiedFrom?: string | null;
  /** The bulk send that made it (ADR 3510); absent or null: a create or a copy. */
  readonly bulkSendId?: string | null;
  /** Its signers may ask someone else to sign in their place (ADR 3560); absent: false. */
  readonly allowReassign?: boolean;
  readonly redirectUrl: string | null;
  readonly expiresAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly sentAt: string | null;
  readonly cancelledAt: string | null;
  readonly expiredAt: string | null;
  readonly completedAt: string | null;
  readonly declinedAt: string | null;
  readonly lastRemindedAt: string | null;
  readonly remindCount: number;
  /** Days between automatic reminders while sent; null: none (ADR 3130). */
  readonly reminderIntervalDays: number | null;
  /**
   * When the next automatic reminder is due: set by the transitions (reminders.ts), null
   * when none is scheduled (not sent, no interval, nothing left to remind, the limit reached).
   */
  readonly nextReminderAt: string | null;
  /** A test Request (issue #22): its messages are kept, not sent, and its PDF is marked. */
  readonly testMode: boolean;
}

/**
 * Who asked a new signer to sign in their place (ADR 3630), as the new signer knows them
 * (their address, else their number), and the note they wrote, if any.
 */
export interface AskedBy {
  readonly who: string;
  readonly note: string | undefined;
}

/** What happened, for the outbox; the application stamps ids and builds the payloads. */
export type RequestEvent =
  | { readonly type: 'request.created' }
  | { readonly type: 'request.sent'; readonly notify: readonly RequestSigner[] }
  | {
      readonly type: 'request.reminded';
      readonly notify: readonly RequestSigner[];
      /** Sent by the Request's own schedule, not a call (ADR 3130). */
      readonly automatic?: true;
      /** A new link to a corrected address or number (ADRs 3140, 3420): an invitation to it. */
      readonly readdressed?: true;
      /** Sent in the last day before `expires_at` (ADR 3470): the expiry warning, or any reminder that late. */
      readonly lastDay?: true;
      /** Said to them instead of the Request's message: a replacement's note to its new signer (ADR 3550). */
      readonly message?: string;
      /** The signer who asked the new one to sign in their place, and their note (ADR 3630). */
      readonly askedBy?: AskedBy;
    }
  /** A Request signed in order reached `order`: its signers are to be told. */
  | {
      readonly type: 'request.turn_started';
      readonly order: number;
      readonly notify: readonly RequestSigner[];
    }
  /** A one-time code for one signer, to be sent on `channel` (internal: never a webhook). */
  | {
      readonly type: 'signer.code_requested';
      readonly signerRef: string;
      readonly channel: Channel;
      readonly code: string;
      readonly expiresAt: string;
    }
  | { readonly type: 'request.viewed'; readonly signerRef: string; readonly at: string }
  /** The sender changed the Request's expiry or automatic reminders (ADR 3150), or a draft's render_data (ADR 3220). */
  | { readonly type: 'request.updated'; readonly changed: readonly RequestUpdatePart[] }
  /** The sender added a signer to a draft (ADR 3280). */
  | { readonly type: 'request.signer_added'; readonly signerRef: string }
  /** The sender added a contract to a draft (ADR 3300), and the fields it brought. */
  | {
      readonly type: 'request.contract_added';
      readonly contract: ContractRef;
      readonly addedFields: readonly string[];
    }
  /** The sender removed one (ADR 3300), and the fields and render_data keys that went with it. */
  | {
      readonly type: 'request.contract_removed';
      readonly contract: ContractRef;
      readonly removedFields: readonly string[];
      readonly removedRenderData: readonly string[];
    }
  /** The sender put a draft's contracts in a new order (ADR 3310): the Request's, as they now stand. */
  | { readonly type: 'request.contracts_reordered' }
  /** The sender removed one from a draft (ADR 3280): who, and the fields that were theirs. */
  | {
      readonly type: 'request.signer_removed';
      readonly signer: Pick<RequestSigner, 'signerId' | 'signerRef'>;
      readonly unassignedFields: readonly string[];
    }
  /** The sender corrected how the signer is reached (ADR 3140): what it was, and who did it. */
  | {
      readonly type: 'request.signer_updated';
      readonly signerRef: string;
      readonly linkReplaced: boolean;
      /** What the signer was; `signerId` when someone else took their place (ADR 3550). */
      readonly previous: Pick<RequestSigner, 'contact' | 'sendTo'> & { readonly signerId?: string };
      readonly by: string;
      /** What changed, in the body's names (ADR 3290). */
      readonly changed: readonly SignerUpdatePart[];
      /** The replaced signer was told they need not sign (ADR 3550). */
      readonly previousNotified?: true;
    }
  /** Internal: tell `notify` the Request is complete, with a link to their copy. */
  | { readonly type: 'notice.completed'; readonly notify: readonly RequestSigner[] }
  /** Internal: tell `notify` that `signerRef` declined, and why. */
  | {
      readonly type: 'notice.declined';
      readonly signerRef: string;
      readonly reason: string;
      readonly notify: readonly RequestSigner[];
    }
  /**
   * Internal: tell a signer someone else was put in their place (ADR 3550); `replaced` is
   * that signer as they were.
   */
  | { readonly type: 'notice.replaced'; readonly replaced: RequestSigner }
  /** Internal: tell the creating user a signer (`from`) asked `to` to sign in their place (ADR 3560). */
  | {
      readonly type: 'notice.reassigned';
      readonly from: string;
      readonly to: string;
      /** What the signer wrote to whom they asked (ADR 3630), when they wrote anything. */
      readonly note?: string;
    }
  /** Internal: tell the creating user their sent Request expired unsigned (ADR 3520). */
  | { readonly type: 'notice.expired' }
  /** Internal: tell `notify` the sender cancelled the Request, and why when they said (ADR 3500). */
  | {
      readonly type: 'notice.cancelled';
      readonly reason: string | undefined;
      readonly notify: readonly RequestSigner[];
    }
  | {
      readonly type: 'request.cancelled';
      readonly previous: RequestState;
      readonly reason?: string;
      readonly signersNotified?: true;
    }
  | { readonly type: 'request.expired'; readonly previous: RequestState }
  | { readonly type: 'request.signed'; readonly signerRef: string }
  | { readonly type: 'request.completed' }
  | { readonly type: 'request.declined'; readonly signerRef: string; readonly reason: string };

export interface Transition {
  readonly request: SignatureRequest;
  readonly events: readonly RequestEvent[];
  /** A signer added to a draft (ADR 3280): the Site's signer it upserts, stored with the change. */
  readonly siteSigners?: readonly SiteSigner[];
  /**
   * …and the check they pass before signing (ADR 2001), stored with the change; a draft's
   * signer's check replaced, or removed (null, ADR 3290).
   */
  readonly challenges?: readonly { readonly signerRef: string; readonly challenge: Challenge | null }[];
}

export type Action =
  | 'send'
  | 'cancel'
  | 'remind'
  | 'expire'
  | 'sign'
  | 'decline'
  | 'reissue_link'
  | 'update_signer'
  | 'update'
  | 'update_render_data'
  | 'update_fields'
  | 'update_message'
  | 'update_subject'
  | 'add_signer'
  | 'remove_signer'
  | 'update_signer_settings'
  | 'replace_signer'
  | 'add_contract'
  | 'remove_contract'
  | 'reorder_contracts';

/** Why a send cannot happen: the spec's three preconditions. */
export type MissingForSend =
  | { readonly _tag: 'NoContracts' }
  | { readonly _tag: 'NoSigners' }
  | { readonly _tag: 'UnassignedFields'; readonly fields: readonly { index: number; name: string }[] }
  /** Some signers have a place in the signing order and these have none (ADR 3290). */
  | {
      readonly _tag: 'SignersWithoutOrder';
      readonly signers: readonly { index: number; signerId: string }[];
    };

export type TransitionError =
  | { readonly _tag: 'StateConflict'; readonly action: Action; readonly state: RequestState }
  | { readonly _tag: 'RequestExpired'; readonly expiresAt: string }
  | { readonly _tag: 'SendPreconditionsFailed'; readonly missing: readonly MissingForSend[] }
  | { readonly _tag: 'RemindTooSoon'; readonly retryAfterSeconds: number }
  | { readonly _tag: 'RemindLimitReached'; readonly limit: number }
  | { readonly _tag: 'NothingToRemind' }
  | { readonly _tag: 'UnknownSigner'; readonly signerRef: string }
  /** A signer added to a draft breaks the create's rules for it (ADR 3280), each at its body field. */
  | { readonly _tag: 'InvalidRequest'; readonly errors: readonly FieldError[] }
  /** The draft's only signer cannot be removed: a Request has at least one (ADR 3280). */
  | { readonly _tag: 'LastSigner' }
  /** Likewise its only contract (ADR 3300); one it does not have is not found. */
  | { readonly _tag: 'LastContract' }
  | { readonly _tag: 'UnknownContract'; readonly contractId: number }
  /** A contract was added or removed since the templates were read: read them again (ADR 3300). */
  | { readonly _tag: 'TemplatesChanged' }
  | { readonly _tag: 'SignerNotPending'; readonly signerRef: string; readonly state: SignerState }
  /** Signing in order: the signer's order has not been reached yet. */
  | {
      readonly _tag: 'NotYourTurn';
      readonly signerRef: string;
      readonly order: number;
      readonly currentOrder: number;
    };
