import { RequestView, SignerEntry } from '../api.js';
import {
  ReissueExecutionUrlBody,
  ReplaceRequestSignerBody,
  UpdateRequestSignerBody,
} from '../request-signer-api.js';
import type { Operation } from './operation.js';

export const REQUEST_ID = { description: 'The Request (a UUID).' } as const;

export const requestAnswer = (description: string) => ({ 200: { description, codec: RequestView } });

/** What the calls on one signer of a Request share. */
const ONE_SIGNER = {
  tag: 'Requests',
  auth: 'access_token',
  idempotent: true,
  params: {
    request_id: REQUEST_ID,
    signer_id: { description: 'The signer’s `signer_id`, percent-encoded.' },
  },
} as const;

/**
 * One signer of a sent Request: a new Execution URL (ADR 1321), corrected details (ADR
 * 3140), or someone else in their place (ADR 3550); a draft's signers added and removed (ADR 3280).
 */
export const REQUEST_SIGNER_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1.1/requests/{request_id}/signers/{signer_id}/execution_url',
    operationId: 'reissueExecutionUrl',
    summary: 'Reissue a signer’s Execution URL',
    description:
      'Gives one signer of a sent Request, who has not signed, a new Execution URL: every older link of theirs ' +
      'stops opening at once (it shows “this link was replaced”), and the new one opens for ' +
      '`EXECUTION_URL_LIFETIME_DAYS` (default 30) from now, never past `expires_at`. With `notify: true` the ' +
      'signer is sent it on their chosen channels, as a reminder. The answer is the Request; the new link is ' +
      'that signer’s `request_url`.',
    ...ONE_SIGNER,
    body: { codec: ReissueExecutionUrlBody, required: false },
    responses: requestAnswer('The Request, with the signer’s new `request_url`.'),
    problems: ['invalid_state', 'request_expired', 'nothing_to_remind', 'test_mode_only_token'],
  },
  {
    method: 'patch',
    path: '/v1.1/requests/{request_id}/signers/{signer_id}',
    operationId: 'updateRequestSigner',
    summary: 'Correct how a signer is reached',
    description:
      'Corrects, on a sent Request, how one signer who has not signed is reached: a new e-mail address or ' +
      'mobile number in `signer` (usually after a message bounced), or other channels in `send_to`. Only this ' +
      'Request changes; the Site’s signer record is left as it is, and the next create upserts it as usual. A new ' +
      'address gives the signer a new Execution URL (the old one may have reached someone else: it stops ' +
      'opening at once) and clears that channel’s delivery status. With `notify` (default true) a signer whose ' +
      'turn it is is sent their link now on their channels; a later turn’s signer is told at their turn. Not ' +
      'counted as a reminder. Every correction writes the `request.signer_updated` event (a webhook). ' +
      'The same details again change nothing and send nothing. On a draft, `send_to`, `order`, ' +
      '`authentication` and `locale` change here, each replaced and `null` removing it (nothing is sent; ' +
      '`request.signer_updated` is written, its `changed` naming what changed): `authentication` is checked ' +
      'as at create (a new `access_code` always counts as a change), and an `order` is not checked against the ' +
      'other signers’, so a draft moves into or out of signing in order one signer at a time, and the send ' +
      'refuses one where only some have an order. A draft’s signers show the Site’s current address and number ' +
      'until it is sent, which `PUT /v1.1/sites/{site_id}/signers/{signer_id}` changes, so `signer` on a draft ' +
      'is a 409; so are `order`, `authentication` and `locale` on a sent Request.',
    ...ONE_SIGNER,
    body: { codec: UpdateRequestSignerBody, required: true },
    responses: requestAnswer(
      'The Request, with the signer’s details and, after a new address, new `request_url`.',
    ),
    problems: ['invalid_state', 'request_expired', 'test_mode_only_token'],
  },
  {
    method: 'post',
    path: '/v1.1/requests/{request_id}/signers/{signer_id}/replace',
    operationId: 'replaceRequestSigner',
    summary: 'Replace a signer of a sent Request',
    description:
      'Someone else signs in the place of a signer of a sent Request who has not signed (the signer left, or ' +
      'delegated): the new signer is given as an element of the create’s `signers` gives one (`signer_id`, ' +
      '`signer`, `send_to`), and upserted on the Site the same way. They take the replaced signer’s place: its ' +
      'position, signing order, check before signing (an access code stays the same; a one-time code goes to ' +
      'their address or number, which they must then have) and language, and the channels unless `send_to` ' +
      'gives others. The fields that were the replaced signer’s are theirs. The place gets a new Execution URL: ' +
      'every older one, which went to the replaced signer, stops opening, and what the replaced signer did there ' +
      '(opened it, passed its check, delivery statuses) is cleared. With `notify` (default true) the new signer ' +
      'is sent an invitation at once when it is their turn; `message` (plain text, up to the Request message’s ' +
      'length) is said in that invitation in place of the Request’s own message, a note on why they are asked, ' +
      'and `request.reminded` carries it as its `message`. With `notify` too, the replaced signer, when they had ' +
      'been sent the Request (their turn had come, by e-mail or SMS), is told by the same channels that someone ' +
      'else signs in their place and nothing more is needed from them (`previous_notified: true` on the event ' +
      'below says so). Writes `request.signer_updated` (a webhook) with ' +
      '`changed` holding `signer_id` and `previous.signer_id` naming who was replaced; the executed document’s ' +
      'audit trail lists it under the new signer. A `signer_id` already on the Request, or the replaced one’s ' +
      'own, is a 422 at `signer_id`; a draft is a 409 (remove the signer and add the new one); a signer who ' +
      'signed or declined is a 409 `invalid_state` too.',
    ...ONE_SIGNER,
    body: { codec: ReplaceRequestSignerBody, required: true },
    responses: requestAnswer(
      'The Request, the new signer in the replaced one’s place with its new `request_url`.',
    ),
    problems: ['invalid_state', 'request_expired', 'test_mode_only_token'],
  },
  {
    method: 'post',
    path: '/v1.1/requests/{request_id}/signers',
    operationId: 'addRequestSigner',
    summary: 'Add a signer to a draft',
    description:
      'Adds one signer to a draft, last, by the create’s rules for an element of `signers`: the signer is ' +
      'upserted on the Site (details given win, then what the `signer_id` is, then what the Site knew), their ' +
      '`authentication` is checked, and their `order` must match the others’: given when they have one, absent ' +
      'when they have none. A `signer_id` already on the Request is a 422 at `signer_id`. The answer is the ' +
      'Request, the new signer last with the `request_url` that opens once it is sent; a signer has no URL of ' +
      'its own, so no `Location`. Nothing is sent. Writes the `request.signer_added` event (a webhook). Fields ' +
      'are assigned to them with `PATCH /v1.1/requests/{request_id}` (`fields`). A sent Request is a 409: its ' +
      'signers have their links.',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: { request_id: REQUEST_ID },
    body: { codec: SignerEntry, required: true },
    responses: { 201: { description: 'The Request, the new signer last in `signers`.', codec: RequestView } },
    problems: ['invalid_state', 'request_expired', 'test_mode_only_token'],
  },
  {
    method: 'delete',
    path: '/v1.1/requests/{request_id}/signers/{signer_id}',
    operationId: 'removeRequestSigner',
    summary: 'Remove a signer from a draft',
    description:
      'Removes one signer from a draft. The fields assigned to them are left with no signer (`assigned_to: ' +
      'null`), and the send refuses the Request until each has one again (`PATCH /v1.1/requests/{request_id}` ' +
      'with `fields`); the `request.signer_removed` event (a webhook) names them in `unassigned_fields`. The ' +
      'draft’s only signer is kept (409 `last_signer`): add the other first. Their `signer_ref` and Execution ' +
      'URL are never used again; the Site’s signer record stays. A sent Request is a 409.',
    ...ONE_SIGNER,
    responses: requestAnswer('The Request without the signer.'),
    problems: ['invalid_state', 'request_expired', 'last_signer', 'test_mode_only_token'],
  },
];
