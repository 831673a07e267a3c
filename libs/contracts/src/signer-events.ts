import * as t from 'io-ts';
import { envelope } from './event-envelope.js';

/** A signer's channels in an event: what the client chose in `send_to`. */
export const Channels = t.type({ email: t.boolean, mobile_number: t.boolean });

const SignerContactData = {
  email: t.union([t.string, t.null]),
  mobile_number: t.union([t.string, t.null]),
  send_to: Channels,
};

/** What a `request.signer_updated` event says changed (ADR 3290), in the body's names. */
export const SIGNER_UPDATE_PARTS = [
  'email',
  'mobile_number',
  'send_to',
  'order',
  'authentication',
  'locale',
  'signer_id',
] as const;
export type SignerUpdatePart = (typeof SIGNER_UPDATE_PARTS)[number];

/**
 * The sender corrected how a signer of a sent Request is reached (ADR 3140), put someone
 * else in their place (ADR 3550: `changed` has `signer_id`, `previous.signer_id` says who it
 * was), or changed a draft's signer (ADR 3290): their details in this Request now, the
 * channels the sender chose, what they were before (`previous`),
 * who corrected them (`corrected_by`: the user's e-mail address, else the token's subject;
 * the replaced signer's own `signer_id` when they asked someone else to sign, ADR 3560)
 * and whether their link was replaced (a new address). No `request_url`: the client reads
 * it from `GET /v1.1/requests/:id`. The requests service keeps the same record for the
 * executed document's audit trail.
 */
export const RequestSignerUpdated = envelope(
  'request.signer_updated',
  t.intersection([
    t.type({
      request_id: t.string,
      signer_id: t.string,
      signer_ref: t.string,
      ...SignerContactData,
      // `signer_id` when someone else signs in their place (ADR 3550): who it was.
      previous: t.intersection([t.type(SignerContactData), t.partial({ signer_id: t.string })]),
      corrected_by: t.string,
      link_replaced: t.boolean,
    }),
    // What changed, in the body's names (ADR 3290); absent on events written before it.
    t.partial({
      changed: t.array(
        t.keyof({
          email: null,
          mobile_number: null,
          send_to: null,
          order: null,
          authentication: null,
          locale: null,
          signer_id: null,
        }),
      ),
      /**
       * Someone else was put in the place (ADR 3550) and the replaced signer, who had been sent
       * the Request, was told they need not sign; absent otherwise.
       */
      previous_notified: t.literal(true),
    }),
  ]),
);
export type RequestSignerUpdated = t.TypeOf<typeof RequestSignerUpdated>;

/**
 * The sender added a signer to a draft (ADR 3280): who, their details and channels as the
 * draft has them now. No `request_url`: the client reads it from the answer or from
 * `GET /v1.1/requests/:id`, and it opens only after the send.
 */
export const RequestSignerAdded = envelope(
  'request.signer_added',
  t.type({ request_id: t.string, signer_id: t.string, signer_ref: t.string, ...SignerContactData }),
);
export type RequestSignerAdded = t.TypeOf<typeof RequestSignerAdded>;

/**
 * The sender removed a signer from a draft (ADR 3280). `unassigned_fields`: the names of the
 * fields that were theirs and now have no signer, which the send refuses until they do.
 */
export const RequestSignerRemoved = envelope(
  'request.signer_removed',
  t.type({
    request_id: t.string,
    signer_id: t.string,
    signer_ref: t.string,
    unassigned_fields: t.array(t.string),
  }),
);
export type RequestSignerRemoved = t.TypeOf<typeof RequestSignerRemoved>;
