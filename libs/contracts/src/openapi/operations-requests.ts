import * as t from 'io-ts';
import { CancelRequestBody, CreateRequestBody, RequestList, RequestView } from '../api.js';
import { VerificationView } from '../verification.js';
import { RequestFieldValues } from '../field-values.js';
import { ATTACHMENT_TYPES } from '../template-fields.js';
import { NoParameters } from '../primitives.js';
import { TestMessageList } from '../test-mode.js';
import { createdQuery, PAGE_QUERY, SITE_ID, stateQuery, type Operation } from './operation.js';
import { REQUEST_ID, requestAnswer, REQUEST_SIGNER_OPERATIONS } from './operations-request-signers.js';
import { CopyRequestBody, UpdateRequestBody } from '../request-settings.js';
import { EVENT_OPERATIONS } from './operations-events.js';
import { BULK_SEND_OPERATIONS } from './operations-bulk-sends.js';
import { CONTRACT_OPERATIONS } from './operations-contracts.js';
import { DRAFT_CONTRACT_OPERATIONS } from './operations-draft-contracts.js';

const lifecycle = (
  action: 'send' | 'cancel' | 'remind',
  summary: string,
  description: string,
  problems: Operation['problems'],
  body: t.Mixed = NoParameters,
): Operation => ({
  method: 'post',
  path: `/v1.1/requests/{request_id}/${action}`,
  operationId: `${action}Request`,
  summary,
  description,
  tag: 'Requests',
  auth: 'access_token',
  idempotent: true,
  params: { request_id: REQUEST_ID },
  body: { codec: body, required: false },
  responses: requestAnswer('The Request after the change.'),
  problems: ['invalid_state', 'request_expired', 'test_mode_only_token', ...problems],
});

/** The requests service's API: Requests, their lifecycle, and contract templates. */
export const REQUEST_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1.1/sites/{site_id}/requests',
    operationId: 'createRequest',
    summary: 'Create a Request',
    description:
      'Creates a draft Request on the Site: contract templates, signers (upserted by `signer_id`), ' +
      'pre-filled and assigned fields. The answer carries each signer’s `request_url`, live once the Request is sent. ' +
      'With `"test_mode": true` nothing is sent: its messages are kept (`GET /v1.1/requests/{request_id}/messages`), ' +
      'its events and webhooks carry `test_mode: true` and its executed PDF is marked not legally binding. ' +
      'A test-only access token may create test Requests only (403 `test_mode_only_token`). ' +
      'With `reminder_interval_days` (an integer from 1 to 30; null or absent: none) the signers are reminded ' +
      'automatically every that many days once it is sent, as `POST …/remind` would, until the reminder limit ' +
      '(signing in order, each later turn counts again from its start); ' +
      'the Request shows it and `next_reminder_at` (null when none is scheduled).',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: { site_id: SITE_ID },
    body: { codec: CreateRequestBody },
    responses: { 201: { description: 'The created Request.', codec: RequestView, location: true } },
    problems: ['test_mode_only_token'],
  },
  {
    method: 'post',
    path: '/v1.1/requests/{request_id}/copy',
    operationId: 'copyRequest',
    summary: 'Copy a Request into a new draft',
    description:
      'Makes a new draft in the Request’s Site from any Request, whatever its state: the same contracts, the ' +
      'same signers (their channels, signing order, check before signing — an access code stays the one they ' +
      'were given — and language), the fields with their signers and values, `render_data`, `cc`, ' +
      '`redirect_url` and `reminder_interval_days`. A signer is reached at the Site’s details of them as they ' +
      'are now. Not copied: its expiry, state, history, links and anything signed. How a declined, expired or ' +
      'cancelled Request is sent again, or a test-mode one for real (`"test_mode": false`; absent, the ' +
      'source’s). Made by the create’s rules: a contract whose template has been archived since is a 422 at ' +
      '`contracts[i]`. The draft’s `copied_from` names the source.',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: { request_id: REQUEST_ID },
    body: { codec: CopyRequestBody, required: false },
    responses: { 201: { description: 'The new draft.', codec: RequestView, location: true } },
    problems: ['test_mode_only_token'],
  },
  {
    method: 'get',
    path: '/v1.1/sites/{site_id}/requests',
    operationId: 'listRequests',
    summary: 'List a Site’s Requests',
    description: 'Newest first.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID },
    query: {
      ...PAGE_QUERY,
      state: stateQuery(['draft', 'sent', 'completed', 'cancelled', 'expired', 'declined']),
      test_mode: {
        description: '`true`: only test-mode Requests; `false`: only real ones; absent: both.',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
      signer_id: {
        description: 'Only the Requests naming this signer (its exact `signer_id`).',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
      contract_id: {
        description:
          'Only the Requests made with this contract template among their contracts (its id), in any of their ' +
          'states: which Requests a template went out in, before it is archived or after.',
        schema: { type: 'integer', minimum: 1 },
      },
      copied_from: {
        description:
          'Only the copies of this Request (its id): what became of a declined, expired or cancelled Request ' +
          'that was sent again.',
        schema: { type: 'string', format: 'uuid' },
      },
      bulk_send_id: {
        description:
          'Only the Requests this bulk send made (its id), with their states: which of its Requests were signed, ' +
          'and which are still open.',
        schema: { type: 'string', format: 'uuid' },
      },
      q: {
        description:
          'Only the Requests whose `title` contains this text, in any case (spaces around it dropped, then 1 to ' +
          '255 characters; `%` and `_` are plain characters). It reads the Site’s Requests.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
      ...createdQuery('Requests created'),
    },
    responses: { 200: { description: 'One page of Requests.', codec: RequestList } },
    problems: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/v1.1/requests/{request_id}',
    operationId: 'getRequest',
    summary: 'Get a Request',
    description: 'The Request with each signer’s state and notification status.',
    tag: 'Requests',
    auth: 'access_token',
    params: { request_id: REQUEST_ID },
    responses: requestAnswer('The Request.'),
    problems: [],
  },
  {
    method: 'patch',
    path: '/v1.1/requests/{request_id}',
    operationId: 'updateRequest',
    summary: 'Change a Request’s expiry or reminders, or a draft’s render_data or fields',
    description:
      'Moves a draft or sent Request’s `expires_at` (later, sooner, or `null` for never; in the future and at most ' +
      '365 days ahead, as at create) or changes its `reminder_interval_days` (1 to 30, or `null` for none). The ' +
      'signers’ links open until the new expiry, within their own lifetime. On a sent Request the next automatic ' +
      'reminder (`next_reminder_at`) is scheduled again from the last notification (the send, the last reminder or ' +
      'a later turn’s start), so a shorter interval may make one due at once. On a draft only, `render_data` ' +
      'replaces the values merged into its HTML contracts, whole (a key left out is removed), checked against the ' +
      'contracts’ tokens as at create; `fields` likewise replaces its field entries with the create’s rules (an ' +
      'entry’s `assigned_to` a signer_id, or an e-mail address taking every field no entry assigns), which is ' +
      'how a draft created with unassigned fields is made ready to send. Once sent, its signers have been shown ' +
      'the document, and either is a 409. `cc` replaces, on a draft or sent Request, the addresses sent a copy of ' +
      'the executed document once everyone has signed. `message` (what the signers read in their e-mails and on ' +
      'their page) and `subject` (their invitation e-mails’ subject; reminders put “Reminder:” before it) are ' +
      'changed on a draft only, `null` removing them: once sent, the signers have read them (409). `title`, the ' +
      'sender’s own name for the Request, is changed on a draft or sent Request, and so is `allow_reassign`, ' +
      'whether its signers may ask someone else to sign in their place: their page offers it, or stops offering ' +
      'it, from then on. ' +
      'Writes `request.updated` (a webhook), whose `changed` names what changed. The same values again change ' +
      'nothing.',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: { request_id: REQUEST_ID },
    body: { codec: UpdateRequestBody, required: true },
    responses: requestAnswer(
      'The Request, with its new `expires_at`, `reminder_interval_days`, `next_reminder_at`, `render_data` and `fields`.',
    ),
    problems: ['invalid_state', 'request_expired', 'test_mode_only_token'],
  },
  lifecycle(
    'send',
    'Send a Request',
    'Publishes the Request: its Execution URLs go live and signers are notified as their `send_to` says. ' +
      'Every field must be assigned first, and every signer must have an `order` or none must (a draft’s ' +
      'signers’ orders are changed one at a time).',
    ['send_preconditions_failed'],
  ),
  lifecycle(
    'cancel',
    'Cancel a Request',
    'Cancels a draft or sent Request: its Execution URLs stop working. No body, or `{}`; or `reason` ' +
      '(plain text, 1 to 1,000 characters once trimmed), kept in `request.cancelled` (its webhook and the ' +
      'Request’s history), and `notify_signers: true` to tell the signers of a sent Request who had been told ' +
      'of it (signing in order: those whose turn had come), signed or not, by the channels they were invited ' +
      'by, quoting the reason in e-mails. Then `request.cancelled` carries `signers_notified: true`. A draft’s ' +
      'signers were never told, so nobody is. Not asked, nobody is told: their link says the Request was cancelled.',
    [],
    CancelRequestBody,
  ),
  lifecycle(
    'remind',
    'Remind the signers',
    'Notifies again the signers who have not signed, at most once per `REMIND_MIN_INTERVAL_SECONDS`. ' +
      'With `reminder_interval_days`, the next automatic reminder moves to that many days from now (`next_reminder_at`).',
    ['remind_too_soon', 'remind_limit_reached', 'nothing_to_remind'],
  ),
  ...REQUEST_SIGNER_OPERATIONS,
  ...DRAFT_CONTRACT_OPERATIONS,
  {
    method: 'get',
    path: '/v1.1/requests/{request_id}/download',
    operationId: 'downloadExecutedDocument',
    summary: 'Download the executed document',
    description:
      'The executed PDF of a completed Request: every contract with its values, signatures and audit trail.',
    tag: 'Requests',
    auth: 'access_token',
    params: { request_id: REQUEST_ID },
    responses: { 200: { description: 'The executed document.', contentType: 'application/pdf' } },
    problems: ['request_not_completed', 'executed_document_unavailable'],
  },
  {
    method: 'get',
    path: '/v1.1/requests/{request_id}/attachments/{field_name}',
    operationId: 'downloadAttachment',
    summary: 'Download a file a signer attached',
    description:
      'The file the signer of an `attachment` field uploaded and signed with (ADR 3920): a PDF, PNG or JPEG ' +
      'of at most 10 MiB, its type from its first bytes, under the name `field_values` shows for the field ' +
      '(`Content-Disposition: attachment`, with `filename*` for a name in any script), its SHA-256 as the ' +
      '`ETag`. Only once that signer signed: before, after a decline, for a field not asked of them, or a ' +
      'field of another type, `not_found`.',
    tag: 'Requests',
    auth: 'access_token',
    params: {
      request_id: REQUEST_ID,
      field_name: { description: 'The attachment field’s name, percent-encoded.' },
    },
    responses: {
      200: { description: 'The file.', fileTypes: [...ATTACHMENT_TYPES] },
    },
    problems: [],
  },
  {
    method: 'get',
    path: '/v1.1/requests/{request_id}/field_values',
    operationId: 'listFieldValues',
    summary: 'Read what the signers entered',
    description:
      'Every field of the Request, in its order, with the value the executed document shows for it: what its ' +
      'signer entered once they signed (`filled_at` is when), an optional field left empty or one not asked for ' +
      'as `""`, a checkbox as a boolean, a `date_signed` as the date they signed on, a signature as the name ' +
      'they typed, a field the executed document conceals (`conceal`) whole; before they sign, its pre-filled ' +
      'value or null. Readable in any state, so a client can ' +
      'store each signer’s answers as they come, without reading the PDF.',
    tag: 'Requests',
    auth: 'access_token',
    params: { request_id: REQUEST_ID },
    responses: {
      200: { description: 'Every field of the Request with its value.', codec: RequestFieldValues },
    },
    problems: [],
  },
  ...EVENT_OPERATIONS,
  ...BULK_SEND_OPERATIONS,
  {
    method: 'get',
    path: '/v1.1/requests/{request_id}/messages',
    operationId: 'listTestMessages',
    summary: 'Read the messages a test-mode Request kept',
    description:
      'The e-mails and SMS of a test-mode Request, rendered exactly as they would have been sent and kept instead, ' +
      'oldest first: subject, text, HTML and the Execution URL, so an automated test can follow the link. ' +
      'A real Request, or one of a Site the credential does not reach, has none.',
    tag: 'Test mode',
    auth: 'access_token',
    params: { request_id: REQUEST_ID },
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of kept messages.', codec: TestMessageList } },
    problems: ['invalid_query'],
  },
  {
    method: 'post',
    path: '/v1.1/verify',
    operationId: 'verifyExecutedDocument',
    summary: 'Verify an executed document',
    description:
      'Send a PDF as the body (`Content-Type: application/pdf`, up to the body limit). `valid`: it is, byte for byte, ' +
      'an executed document this service issued, with its Request, completion, signers and hashes. `modified`: it names ' +
      'a Request whose executed document this service issued, but is not that file. `unknown`: neither. ' +
      'No credential; rate-limited per client address (`RATE_LIMIT_ANONYMOUS`).',
    tag: 'Requests',
    auth: 'public',
    body: { codec: t.string, contentType: 'application/pdf' },
    responses: { 200: { description: 'What the file is.', codec: VerificationView } },
    problems: ['rate_limited', 'payload_too_large', 'unsupported_media_type', 'invalid_body'],
  },
  ...CONTRACT_OPERATIONS,
];
