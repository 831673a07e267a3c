import {
  BulkSendList,
  BulkSendRequestsCancelled,
  CancelBulkSendRequestsBody,
  BulkSendView,
  CreateBulkSendBodyDocumented,
} from '../bulk-send.js';
import { createdQuery, PAGE_QUERY, SITE_ID, stateQuery, type Operation } from './operation.js';

/**
 * Bulk send (ADR 2201): started, read, listed for its Site (ADR 3440) and cancelled
 * (ADR 3450), and the Requests it made cancelled (ADR 3480).
 */
export const BULK_SEND_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1.1/sites/{site_id}/bulk_sends',
    operationId: 'createBulkSend',
    summary: 'Bulk send: one Request per row',
    description:
      'The shared `contracts`, `fields`, `redirect_url`, `expires_at`, `reminder_interval_days`, `test_mode`, ' +
      '`message` and `subject`, and 1 to 1,000 `rows`, each one ' +
      'Request’s `signers`, `render_data`, field values (laid over the shared `fields` by name) and `title`. Answers 202 at once; ' +
      'the Requests are made in the background (and sent, with `"send": true`), each row once even across restarts. ' +
      'A row that is invalid fails alone, with the errors a single create would give at `rows[i]…`. ' +
      'Webhook `bulk_send.completed` when every row is settled.',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: { site_id: SITE_ID },
    body: { codec: CreateBulkSendBodyDocumented },
    responses: { 202: { description: 'The bulk send, just started.', codec: BulkSendView, location: true } },
    problems: ['test_mode_only_token'],
  },
  {
    method: 'get',
    path: '/v1.1/sites/{site_id}/bulk_sends',
    operationId: 'listBulkSends',
    summary: 'List a Site’s bulk sends',
    description:
      'Newest first, each with its counts (rows in all, created, sent, failed) and the templates its Requests are ' +
      'made of, by `id` and `name` (a template deleted since is still named). Its failures and Requests: ' +
      '`GET /v1.1/bulk_sends/{bulk_send_id}`.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID },
    query: {
      ...PAGE_QUERY,
      state: stateQuery(['running', 'completed']),
      contract_id: {
        description:
          'Only the bulk sends made with this contract template among their templates (its id): which bulk sends a ' +
          'template went out in, archived or deleted since or not.',
        schema: { type: 'integer', minimum: 1 },
      },
      ...createdQuery('bulk sends started'),
    },
    responses: { 200: { description: 'One page of bulk sends.', codec: BulkSendList } },
    problems: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/v1.1/bulk_sends/{bulk_send_id}',
    operationId: 'getBulkSend',
    summary: 'A bulk send’s progress',
    description:
      'Rows in all, created, sent and failed; each failed row with its errors; the Requests made, in row order.',
    tag: 'Requests',
    auth: 'access_token',
    params: { bulk_send_id: { description: 'The bulk send (a UUID).' } },
    responses: { 200: { description: 'The bulk send.', codec: BulkSendView } },
    problems: [],
  },
  {
    method: 'post',
    path: '/v1.1/bulk_sends/{bulk_send_id}/cancel',
    operationId: 'cancelBulkSend',
    summary: 'Cancel a running bulk send',
    description:
      'No more of its rows are made: each row still pending is left unmade and counted in `cancelled`, and ' +
      '`cancelled_at` is set. A row a worker is making at that moment finishes (its Request made and, with ' +
      '`send`, sent), so the bulk send may stay `running` a moment before it completes; Requests already made are ' +
      'not cancelled. Cancelling again answers it as it is; a bulk send that completed without a cancel is a 409 ' +
      '`bulk_send_completed`. Webhook `bulk_send.completed` carries `cancelled` and `cancelled_at`.',
    tag: 'Requests',
    auth: 'access_token',
    params: { bulk_send_id: { description: 'The bulk send (a UUID).' } },
    responses: { 200: { description: 'The bulk send, cancelled.', codec: BulkSendView } },
    problems: ['bulk_send_completed'],
  },
  {
    method: 'post',
    path: '/v1.1/bulk_sends/{bulk_send_id}/cancel_requests',
    operationId: 'cancelBulkSendRequests',
    summary: 'Cancel the Requests a bulk send made',
    description:
      'Cancels every Request the bulk send made that is still a draft or sent, as `POST /v1.1/requests/{id}/cancel` ' +
      'would one by one: each gets its `request.cancelled` and its Execution URLs stop working. Those already ' +
      'completed, declined, expired or cancelled are left as they are and counted in `already_closed`. A bulk send ' +
      'still `running` is a 409 `bulk_send_running`: cancel it first (`POST /v1.1/bulk_sends/{bulk_send_id}/cancel`), ' +
      'then call this once it completes. Each Request is cancelled in its own transaction; repeating the call ' +
      'cancels what is still open (after a failure, the rest), so it takes no Idempotency-Key. No body, or `{}`, ' +
      'or a `reason` (as the cancel’s, 1 to 1,000 characters) each `request.cancelled` keeps, and ' +
      '`notify_signers` (default false): as for `POST /v1.1/requests/{id}/cancel`, the signers of each sent ' +
      'Request who had been told of it are told of its cancel, by the channels they were invited by. A call that ' +
      'can message every signer of a bulk send draws on the costly rate limit, as the bulk send did.',
    tag: 'Requests',
    auth: 'access_token',
    params: { bulk_send_id: { description: 'The bulk send (a UUID).' } },
    body: { codec: CancelBulkSendRequestsBody, required: false },
    responses: {
      200: {
        description: 'How many of its Requests were cancelled and how many were closed already.',
        codec: BulkSendRequestsCancelled,
      },
    },
    problems: ['bulk_send_running', 'test_mode_only_token'],
  },
];
