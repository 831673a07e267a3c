import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import Koa from 'koa';
import request from 'supertest';
import type { ApiClient, ApiProblem, Call } from '../../src/api-client.js';
import { csrfTokenOf } from '../../src/cookies.js';
import { createWebApp } from '../../src/index.js';

export const SESSION = 'ses_test-session-credential';
/** The signed-in browser's cookies, its CSRF token and its origin, for a page's form. */
export const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
export const CSRF = csrfTokenOf(SESSION);
export const ORIGIN = 'http://127.0.0.1:8080';
export const CURRENT = {
  user: { id: 'u1', email: 'owner@acme.test', account_id: 'a1' },
  sites: [{ id: 3, name: 'Production' }],
  expires_at: '2030-01-01T00:00:00.000Z',
  account_admin: true,
};

/** `GET /v1.1/account` of the signed-in user above. */
export const ACCOUNT_VIEW = {
  id: 'a1',
  name: 'Acme',
  api_access: true,
  created_at: '2030-01-01T00:00:00.000Z',
  admins: ['owner@acme.test'],
};

/**
 * The API as the pages see it: answers by method and path, and every call recorded; a
 * streamed call (the executed PDF) gets the `Response` given as `STREAM <path>`.
 */
export const fakeApi = (answers: Record<string, unknown>) => {
  const calls: Call<unknown>[] = [];
  const client: ApiClient = {
    call: <A>(call: Call<A>) => {
      calls.push(call);
      const answer = answers[`${call.method} ${call.path}`];
      if (answer === undefined)
        return Promise.resolve(
          E.left<ApiProblem, A>({ type: 'x', title: 'Not found', status: 404, code: 'not_found' }),
        );
      if (typeof answer === 'object' && answer !== null && 'code' in answer && 'status' in answer)
        return Promise.resolve(E.left<ApiProblem, A>(answer as ApiProblem));
      const decoded = call.codec.decode(answer);
      assert.ok(E.isRight(decoded), `the fake's answer to ${call.method} ${call.path} has the API's shape`);
      return Promise.resolve(E.right<ApiProblem, A>(decoded.right));
    },
    stream: (path) => {
      const answer = answers[`STREAM ${path}`];
      return answer instanceof Response
        ? Promise.resolve(answer)
        : Promise.reject(new Error(`no stream: ${path}`));
    },
  };
  return { client, calls };
};

export const appWith = (answers: Record<string, unknown>, publicBaseUrl = 'http://127.0.0.1:8080') => {
  const api = fakeApi(answers);
  const app = new Koa();
  app.use(createWebApp({ apiBaseUrl: 'http://unused', publicBaseUrl, api: api.client }));
  app.use((ctx) => {
    ctx.body = 'the API';
  });
  return { callback: app.callback(), calls: api.calls };
};

/** The calls the app made with `method`, as [path, body]. */
export const callsOf = (app: ReturnType<typeof appWith>, method: string) =>
  app.calls.filter((c) => c.method === method).map((c) => [c.path, c.body]);

/**
 * Follows a form's answer to the page that shows its secret once (ADR 3210), as a browser
 * does: the answer must be a redirect to `page` whose sealed cookie is scoped to that page
 * and holds nothing readable; the page is read with it and must clear it.
 */
export const followShownOnce = async (
  app: ReturnType<typeof appWith>,
  answer: request.Response,
  page: string,
): Promise<{ shown: request.Response; sealed: string }> => {
  assert.equal(answer.status, 303);
  assert.equal(answer.headers.location, page);
  assert.equal(answer.headers['cache-control'], 'no-store');
  const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
  const escaped = page.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const cookie = set
    .map((c) =>
      new RegExp(`^esign_shown=([^;]+); Path=${escaped}; HttpOnly; SameSite=Lax; Max-Age=120$`).exec(c),
    )
    .find((m) => m !== null);
  assert.ok(cookie, `a sealed cookie for ${page} only: ${set.join(' | ')}`);
  const sealed = cookie[1]!;
  assert.equal(sealed.split('.').length, 5, 'a compact JWE');
  const shown = await request(app.callback)
    .get(page)
    .set('Cookie', `${COOKIE}; esign_shown=${sealed}`)
    .expect(200);
  assert.ok(
    ([] as string[])
      .concat(shown.headers['set-cookie'] ?? [])
      .includes(`esign_shown=; Path=${page}; HttpOnly; SameSite=Lax; Max-Age=0`),
    'the page clears the cookie as it reads it',
  );
  return { shown, sealed };
};

export const REQUEST_ID = '7b0e7d1c-5a7e-4d0e-9d55-0f0d6c7d2a11';
const AT = '2030-01-01T00:00:00.000Z';

/**
 * A Request of one signer (ann@example.com, e-mail chosen) as `GET /v1.1/requests/:id`
 * answers it: `sent` with the signer yet to sign, or `completed` with them signed.
 */
export const requestView = (
  state: 'sent' | 'completed',
  requestUrl = 'http://127.0.0.1:8080/sign/x',
  testMode = false,
) => ({
  id: REQUEST_ID,
  site_id: 3,
  state,
  contracts: [1],
  signers: [
    {
      signer_id: 'ann@example.com',
      signer_ref: 'ref-ann',
      email: 'ann@example.com',
      mobile_number: null,
      send_to: { email: true, mobile_number: false },
      state: state === 'completed' ? 'signed' : 'pending',
      request_url: requestUrl,
      signed_at: state === 'completed' ? AT : null,
      declined_at: null,
      notifications: { email: 'delivered', sms: 'not_requested' },
      order: null,
      turn: false,
      authentication: null,
      locale: null,
      viewed_at: AT,
    },
  ],
  fields: [],
  render_data: {},
  redirect_url: null,
  expires_at: null,
  created_at: AT,
  updated_at: AT,
  sent_at: AT,
  cancelled_at: null,
  expired_at: null,
  completed_at: state === 'completed' ? AT : null,
  declined_at: null,
  last_reminded_at: null,
  remind_count: 0,
  reminder_interval_days: null,
  next_reminder_at: null,
  current_order: null,
  test_mode: testMode,
  cc: [] as string[],
  message: null as string | null,
  subject: null as string | null,
  copied_from: null as string | null,
  bulk_send_id: null as string | null,
  allow_reassign: false,
  title: null as string | null,
});

/**
 * A problem the fake API answers with; `errors` names the field its one error is about
 * (`message` says what), or maps each field to its error.
 */
export const apiProblem = (
  status: number,
  code: string,
  detail: string,
  errors?: string | Record<string, string>,
  message?: string,
) => ({
  type: 'x',
  title: 'Refused',
  status,
  code,
  detail,
  ...(errors === undefined
    ? {}
    : {
        errors:
          typeof errors === 'string'
            ? [{ path: errors, message: message ?? 'is wrong' }]
            : Object.entries(errors).map(([path, text]) => ({ path, message: text })),
      }),
});

/** One page of a list as the API answers it: everything on it. */
export const page = <A>(data: A[]) => ({
  page: 1,
  per_page: 100,
  count: data.length,
  total_count: data.length,
  has_more: false,
  data,
});

/** A contract template of Site 3 as the API lists it. */
export const contract = (
  id: number,
  name: string,
  state: 'draft' | 'published',
  tokens: string[],
  fields: {
    name: string;
    type: string;
    options?: string[];
    min_length?: number;
    max_length?: number;
    validation?: string;
    earliest?: string;
    latest?: string;
  }[] = [],
) => ({
  id,
  site_id: 3,
  name,
  type: 'html',
  state,
  tokens,
  fields,
  document: { size_bytes: 10, sha256: 'ab' },
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  published_at: state === 'published' ? '2030-01-01T00:00:00.000Z' : null,
  archived_at: null as string | null,
});

/** A bulk send of Site 3 as the API lists it (ADR 3440): completed, of template 11, unless `more` says otherwise. */
export const bulkSendSummary = (id: string, more: Record<string, unknown> = {}) => ({
  id,
  site_id: 3,
  state: 'completed',
  send: true,
  test_mode: false,
  rows_total: 4,
  created: 3,
  sent: 3,
  failed: 1,
  cancelled: 0,
  cancelled_at: null,
  contracts: [{ id: 11, name: 'Service agreement' }],
  created_at: '2030-01-02T09:30:00.000Z',
  completed_at: '2030-01-02T09:31:00.000Z',
  ...more,
});
