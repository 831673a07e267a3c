// What happened to Requests: one Request's history, and a Site's feed of all of them.
import { HISTORY_ORDERS, RequestEventList, SiteEventFeed } from '../request-history.js';
import { PAGE_QUERY, SITE_ID, type Operation } from './operation.js';
import { REQUEST_ID } from './operations-request-signers.js';

export const EVENT_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/v1.1/requests/{request_id}/events',
    operationId: 'listRequestEvents',
    summary: 'Read a Request’s history',
    description:
      'Every event of the Request a webhook endpoint can subscribe to (`request.sent`, `request.viewed`, ' +
      '`request.signed`, …), oldest first (`order=desc`: newest first), each exactly as its webhook delivery ' +
      'carries it (the same `id`), ' +
      'whether or not the Site has endpoints: kept as long as the Request. A client that missed a delivery, or ' +
      'subscribed after the fact, reads what happened here. A draft that was never changed has none.',
    tag: 'Requests',
    auth: 'access_token',
    params: { request_id: REQUEST_ID },
    query: {
      ...PAGE_QUERY,
      order: {
        description:
          '`asc`: oldest first; `desc`: newest first, so the first page holds the latest events. Entries that ' +
          'happened at the same instant keep the order they were recorded in.',
        schema: { type: 'string', enum: [...HISTORY_ORDERS], default: 'asc' },
      },
      type: {
        description:
          'Only entries of these types, comma-separated (`type=request.cancelled`) or repeated, as the Site’s feed ' +
          'takes them; `total_count` then counts those alone. `type=request.signed&order=desc` answers the latest ' +
          'signature first.',
        schema: { type: 'string', example: 'request.signed,request.declined' },
      },
    },
    responses: {
      200: {
        description: 'One page of the Request’s events, in the order asked for.',
        codec: RequestEventList,
      },
    },
    problems: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/v1.1/sites/{site_id}/events',
    operationId: 'listSiteEvents',
    summary: 'Read a Site’s event feed',
    description:
      'Every Request history entry of the Site (the events `GET /v1.1/requests/{request_id}/events` lists), ' +
      'in one feed, each exactly as its webhook delivery carries it. Read it from the start, then pass each ' +
      'answer’s `next_after` as `after` to get what came since: a cursor never skips an event, even one whose ' +
      'change was stored while the feed was read, and polling with the same `next_after` is how a client ' +
      'without a webhook endpoint (or one catching up after an outage) follows every Request at once. ' +
      'Entries come in the order their changes were stored, and one appears once every change stored before ' +
      'it has settled (usually at once; a long-running database transaction can hold it back, never lose it). ' +
      '`order=desc` looks back instead: the same entries newest first, then older ones with each answer’s ' +
      '`next_before` as `before`; its first answer’s `next_after` is where to poll on from. The Site’s ' +
      'template events (`contract.created`, `contract.published`, …) are in it too, listed only when `type` ' +
      'names them, so a client can follow its templates the same way.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID },
    query: {
      order: {
        description:
          '`asc`: oldest first, after `after`, to follow the feed; `desc`: newest first, before `before`, to ' +
          'look back (the latest entries on the first page).',
        schema: { type: 'string', enum: [...HISTORY_ORDERS], default: 'asc' },
      },
      after: {
        description:
          'A `next_after` from an earlier answer: only entries after it. Absent: from the Site’s first entry. ' +
          'Not with `order=desc`.',
        schema: { type: 'string' },
      },
      before: {
        description:
          'With `order=desc` only: a `next_before` from an earlier answer, only entries before it. Absent: from ' +
          'the newest entry.',
        schema: { type: 'string' },
      },
      per_page: PAGE_QUERY.per_page!,
      type: {
        description:
          'Only entries of these types, comma-separated (`type=request.signed,request.completed`) or repeated: ' +
          'a Request history type, or a template event type (`contract.created`, `contract.updated`, ' +
          '`contract.published`, `contract.archived`, `contract.unarchived`, `contract.deleted`), which only ' +
          'this lists. ' +
          'When none is left to list, `next_after` passes every entry read, of any type, so the next poll starts ' +
          'after them. Keep the same `type` while following one cursor.',
        schema: { type: 'string', example: 'request.completed,request.declined' },
      },
    },
    responses: {
      200: {
        description:
          'Up to `per_page` entries in the order asked for, with the cursors to read newer (`next_after`) and ' +
          'older (`next_before`, null when the page is empty) entries from.',
        codec: SiteEventFeed,
      },
    },
    problems: ['invalid_query'],
  },
];
