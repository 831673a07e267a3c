import { conformanceOf } from './conformance.js';

/** What a client of the product sees of one HTTP answer. */
export interface Answer<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body as JSON, when it is JSON. */
  readonly body: T;
}

export interface ApiClient {
  call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer<T>>;
  get<T = unknown>(path: string): Promise<Answer<T>>;
  post<T = unknown>(path: string, body?: unknown): Promise<Answer<T>>;
}

const parse = (text: string, type: string | null): unknown => {
  if (type === null || !/json/.test(type) || text === '') return undefined;
  return JSON.parse(text) as unknown;
};

/**
 * A client of the gateway: every call carries `authorization` when given, JSON bodies;
 * every answer is checked against the OpenAPI document the gateway serves.
 */
export const apiClient = (baseUrl: string, authorization?: string): ApiClient => {
  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> => {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      redirect: 'manual',
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    (await conformanceOf(baseUrl)).check({
      method,
      url: path,
      status: response.status,
      contentType: response.headers.get('content-type'),
      text,
    });
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: parse(text, response.headers.get('content-type')) as T,
    };
  };
  return {
    call,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
  };
};

export const bearer = (token: string): string => `Bearer ${token}`;

/** Fails with the whole answer when the status is not the expected one. */
export const expectStatus = <T>(answer: Answer<T>, status: number, what = ''): Answer<T> => {
  if (answer.status !== status)
    throw new Error(`${what} expected ${status}, got ${answer.status}: ${answer.text.slice(0, 1500)}`);
  return answer;
};
