import request from 'supertest';
import type { appWith } from './fake-api.js';
import {
  contract,
  COOKIE,
  CSRF,
  CURRENT,
  page as list,
  ORIGIN,
  REQUEST_ID as ID,
  requestView,
} from './fake-api.js';

export { contract, COOKIE, list };

// The New Request page's fake API and a filled form, for the tests of that page.

export const CREATE = 'POST /v1.1/sites/3/requests';
export const SEND = `POST /v1.1/requests/${ID}/send`;
/** The templates New Request offers: the published ones not archived (ADR 3250). */
export const TEMPLATES = 'GET /v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false';

export const DRAFT = { ...requestView('sent'), state: 'draft', sent_at: null };

export const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  [TEMPLATES]: list([
    contract(
      11,
      'Service agreement',
      'published',
      ['client_name', 'plan'],
      [{ name: 'signature', type: 'signature' }],
    ),
    contract(12, 'Draft one', 'draft', []),
  ]),
  [CREATE]: DRAFT,
  [SEND]: requestView('sent'),
  [`GET /v1.1/requests/${ID}`]: DRAFT,
  ...more,
});

export const keyOf = (page: string): string => /name="idempotency_key" value="([^"]*)"/.exec(page)?.[1] ?? '';

export const FILLED = {
  contract_11: 'on',
  signer_id_1: 'ann@example.com',
  email_1: '',
  mobile_1: '',
  notify_email_1: 'true',
  signer_id_2: 'client-2',
  email_2: 'bob@example.com',
  mobile_2: '(555) 201-0123',
  notify_email_2: 'true',
  notify_sms_2: 'true',
  signer_id_3: '',
  email_3: '',
  mobile_3: '',
  notify_email_3: 'true',
  in_order: 'true',
  'assign:signature': '2',
  render_data: 'client_name = Ann Lee\r\n\r\nplan=gold = best\n',
  redirect_url: 'https://client.example/done',
  expires_at: '2030-01-31T12:00',
  test_mode: 'true',
};

export const post = (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
  request(app.callback)
    .post('/app/requests/new')
    .set('Cookie', COOKIE)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ _csrf: CSRF, idempotency_key: 'form-key-0001', ...fields });

/** The body New Request created the Request with. */
export const created = (app: ReturnType<typeof appWith>) =>
  app.calls.find((c) => `${c.method} ${c.path}` === CREATE)?.body as Record<string, unknown>;
