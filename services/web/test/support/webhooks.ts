import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { CURRENT, SESSION, type appWith } from './fake-api.js';

export const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
export const AT = '2030-01-01T00:00:00.000Z';
export const HOOK_ID = '0b6f2c4e-8d1a-4f3b-9c2e-5a7d9e1f3b20';
export const DELIVERY_ID = '4c8e1a2b-6d3f-4e5a-8b7c-9d0e1f2a3b4c';
export const EVENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const BASE = '/v1.1/sites/3/webhooks';
export const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCD';

/** An endpoint of Site 3 as the API answers it (never with its secret). */
export const endpoint = (overrides: Record<string, unknown> = {}) => ({
  id: HOOK_ID,
  site_id: 3,
  url: 'https://hooks.acme.example/esign',
  description: 'Order system',
  event_types: ['request.sent', 'request.completed'],
  enabled: true,
  disabled_reason: null,
  alert_email: 'ops@acme.example',
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: AT,
  updated_at: AT,
  ...overrides,
});

export const delivery = (overrides: Record<string, unknown> = {}) => ({
  id: DELIVERY_ID,
  endpoint_id: HOOK_ID,
  event_id: EVENT_ID,
  event_type: 'request.sent',
  status: 'delivered',
  attempts: 2,
  next_attempt_at: null,
  last_attempt_at: '2030-01-01T00:01:05.000Z',
  response_status: 200,
  response_excerpt: 'ok',
  error: null,
  created_at: '2030-01-01T00:00:10.000Z',
  settled_at: '2030-01-01T00:01:05.000Z',
  ...overrides,
});

/** One page of a list with `total` items in all. */
export const listPage = <A>(data: A[], page = 1, perPage = 20, total = data.length) => ({
  page,
  per_page: perPage,
  count: data.length,
  total_count: total,
  has_more: page * perPage < total,
  data,
});

/** What every page of the signed-in owner of Site 3 reads. */
export const SIGNED_IN = { 'GET /v1.1/sessions/current': CURRENT };

export const post = (app: ReturnType<typeof appWith>, path: string, fields: Record<string, string>) =>
  request(app.callback)
    .post(path)
    .set('Cookie', COOKIE)
    .type('form')
    .send({ _csrf: csrfTokenOf(SESSION), ...fields });

export const get = (app: ReturnType<typeof appWith>, path: string, status = 200) =>
  request(app.callback).get(path).set('Cookie', COOKIE).expect(status);

export { callsOf } from './fake-api.js';
