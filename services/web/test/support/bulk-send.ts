import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { bulkSendSummary, contract, CURRENT, SESSION, type appWith } from './fake-api.js';

// The bulk send pages' fake API, an upload and the preview's Send form, for the tests of those pages.

export const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
export const CSRF = csrfTokenOf(SESSION);
export const ORIGIN = 'http://127.0.0.1:8080';
const AT = '2030-01-01T00:00:00.000Z';

/** A bulk send still running, one row refused: the real answer's shape, from `bulkSendSummary`. */
export const BULK = bulkSendSummary('b7a1c2d3-0000-4000-8000-000000000001', {
  state: 'running',
  failures: [
    { row: 3, request_id: null, errors: [{ path: 'rows[3].signers', message: 'must have at least 1 item' }] },
  ],
  requests: [{ row: 0, request_id: 'r0000000-0000-4000-8000-000000000000' }],
  created_at: AT,
  completed_at: null,
});

export const answers = {
  'GET /v1.1/sessions/current': CURRENT,
  'GET /v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false': {
    page: 1,
    per_page: 100,
    count: 2,
    total_count: 2,
    has_more: false,
    data: [
      contract(11, 'Service agreement', 'published', ['client_name']),
      contract(12, 'Draft one', 'draft', []),
    ],
  },
  'POST /v1.1/sites/3/bulk_sends': BULK,
  [`GET /v1.1/bulk_sends/${BULK.id}`]: BULK,
};

export const GOOD = 'signer_id,render_data.client_name\nc-1,Ann\nc-2,Bob\nc-3,Cy\n,Dee\n';

export const preview = (
  callback: ReturnType<typeof appWith>['callback'],
  fields: Record<string, string>,
  csv?: string,
) => {
  let call = request(callback).post('/app/bulk-sends/preview').set('Cookie', COOKIE).set('Origin', ORIGIN);
  for (const [name, value] of Object.entries({ _csrf: CSRF, ...fields })) call = call.field(name, value);
  return csv === undefined
    ? call
    : call.attach('csv', Buffer.from(csv), { filename: 'clients.csv', contentType: 'text/csv' });
};

export const hidden = (page: string, name: string): string =>
  (new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The preview's Send form posted as the browser does: every hidden field of `page`. */
export const confirm = (callback: ReturnType<typeof appWith>['callback'], page: string) => {
  const names = [
    'idempotency_key',
    'contracts',
    'redirect_url',
    'send',
    'test_mode',
    'allow_reassign',
    'subject',
    'message',
  ];
  const fields = Object.fromEntries(names.map((name) => [name, hidden(page, name)]));
  return request(callback)
    .post('/app/bulk-sends')
    .set('Cookie', COOKIE)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ _csrf: CSRF, ...fields, file_name: 'clients.csv', csv: hidden(page, 'csv') });
};
