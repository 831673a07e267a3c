import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import Koa from 'koa';
import type { ApiClient, ApiProblem, Call } from '../../src/api-client.js';
import { createWebApp } from '../../src/index.js';

export const SESSION = 'ses_test-session-credential';
export const CURRENT = {
  user: { id: 'u1', email: 'owner@acme.test', account_id: 'a1' },
  sites: [{ id: 3, name: 'Production' }],
  expires_at: '2030-01-01T00:00:00.000Z',
  account_admin: true,
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
