// What a transition tells the outbox: the events, before the application stamps and builds them.
import type { RequestUpdatePart, SignerUpdatePart } from '@esign/contracts';
import type { Channel, ContractRef, RequestSigner, RequestState } from './request-model.js';

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
  | { readonly type: 'notice.reassigned'; readonly from: string; readonly to: string }
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
