import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { Problem } from '@esign/contracts';
import { callerHeaders } from './caller.js';

/**
 * What a page shows when a call did not give the answer it wanted: the API's problem, as
 * sent, and the seconds its `Retry-After` header asked a client to wait (a 429), if any.
 */
export type ApiProblem = Problem & { readonly retryAfterSeconds?: number };

export type ApiResult<A> = E.Either<ApiProblem, A>;

export interface Call<A> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly bearer?: string | undefined;
  readonly body?: unknown;
  /** A body that is not JSON (a PDF), sent as it is. */
  readonly raw?: { readonly contentType: string; readonly bytes: Uint8Array };
  readonly codec: t.Decoder<unknown, A>;
  /** An `Idempotency-Key`, so that a form sent twice makes one thing. */
  readonly idempotencyKey?: string;
}

/** A call whose answer has no body (204). */
export const NoContent = new t.Type<undefined, undefined, unknown>(
  'NoContent',
  (u): u is undefined => u === undefined,
  (u, c) => (u === undefined || u === '' ? t.success(undefined) : t.failure(u, c)),
  () => undefined,
);

const unavailable = (detail: string): ApiProblem => ({
  type: 'about:blank',
  title: 'Service unavailable',
  status: 503,
  code: 'web_upstream_unavailable',
  detail,
});

export interface ApiClient {
  readonly call: <A>(call: Call<A>) => Promise<ApiResult<A>>;
  /** A streamed answer (the executed PDF), passed on as it is. */
  readonly stream: (path: string, bearer: string) => Promise<Response>;
}

/**
 * What a streamed call that did not answer OK says: its problem document when it sent
 * one (the API's own words, such as why the executed PDF cannot be sealed now), else
 * `fallback`.
 */
export const problemOfStream = async (response: Response, fallback: ApiProblem): Promise<ApiProblem> => {
  const text = await response.text().catch(() => '');
  try {
    const body: unknown = JSON.parse(text);
    return Problem.is(body) ? body : fallback;
  } catch {
    return fallback;
  }
};

/**
 * The web application's only way to the backend: HTTP to the gateway's public address,
 * exactly as any other client calls it. Every answer is decoded with the contracts'
 * codecs; anything else (an outage, an answer of the wrong shape) becomes a 503 problem.
 */
export const apiClient = (baseUrl: string, timeoutMs = 15_000, callerSecret?: string): ApiClient => {
  const base = baseUrl.replace(/\/+$/, '');
  const headersOf = (bearer: string | undefined, json: boolean): Record<string, string> => ({
    ...callerHeaders(callerSecret),
    accept: 'application/json, application/problem+json',
    ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    ...(json ? { 'content-type': 'application/json' } : {}),
  });
  return {
    call: async <A>(call: Call<A>): Promise<ApiResult<A>> => {
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${base}${call.path}`, {
          method: call.method,
          headers: {
            ...headersOf(call.bearer, call.body !== undefined),
            ...(call.raw === undefined ? {} : { 'content-type': call.raw.contentType }),
            ...(call.idempotencyKey === undefined ? {} : { 'idempotency-key': call.idempotencyKey }),
          },
          body:
            call.raw !== undefined
              ? Buffer.from(call.raw.bytes)
              : call.body === undefined
                ? null
                : JSON.stringify(call.body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        return E.left(unavailable(`The API could not be reached (${(error as Error).message}).`));
      }
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        return E.left(unavailable(`The API answered ${response.status} with a body that is not JSON.`));
      }
      if (!response.ok) {
        if (!Problem.is(body))
          return E.left(unavailable(`The API answered ${response.status} without a problem document.`));
        const wait = Number(response.headers.get('retry-after') ?? '');
        return E.left(Number.isInteger(wait) && wait > 0 ? { ...body, retryAfterSeconds: wait } : body);
      }
      const decoded = call.codec.decode(body);
      return E.isRight(decoded)
        ? E.right(decoded.right)
        : E.left(
            unavailable(`The API's answer to ${call.method} ${call.path} was not of the expected shape.`),
          );
    },
    stream: (path, bearer) =>
      fetch(`${base}${path}`, {
        headers: headersOf(bearer, false),
        signal: AbortSignal.timeout(timeoutMs * 4),
      }),
  };
};
