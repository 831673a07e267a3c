import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';

/** The API's named shapes: `Schemas['RequestView']`, `Schemas['Problem']`, … */
export type Schemas = components['schemas'];

export type EsignClient = Client<paths>;

export interface EsignClientOptions {
  /** The gateway's address, e.g. `https://esign.example.com`. */
  readonly baseUrl: string;
  /**
   * Sent as `Authorization: Bearer …` on every call: an access token for the API, or the
   * `session_token` of `POST /v1.1/sessions` for the self-service API (apps, tokens).
   */
  readonly accessToken?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Another `fetch` (a proxy, a test's checks). */
  readonly fetch?: (request: Request) => Promise<Response>;
}

/**
 * A typed client of the e-signature API (openapi-fetch over the types openapi-typescript
 * generates from docs/openapi.json): paths, parameters, bodies and answers are checked by
 * the compiler. Each call answers `{ data, error, response }`.
 */
export const createEsignClient = (options: EsignClientOptions): EsignClient =>
  createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      ...(options.accessToken === undefined ? {} : { Authorization: `Bearer ${options.accessToken}` }),
      ...options.headers,
    },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
