import type * as t from 'io-ts';
import type { ProblemCode } from './problem-codes.js';

/**
 * One public operation as the OpenAPI document states it. Declared next to the codecs
 * the services decode and answer with, so a changed body or answer changes the document.
 */
export type Codec = t.Decoder<unknown, unknown>;

/**
 * `access_token`: the gateway authenticates (site scope, rate limits). `session`: the
 * self-service API's session credential, checked by auth. `client`: OAuth client
 * credentials. `public`: nobody checks a credential (the key set, signer pages, sign-in).
 */
export type Auth = 'access_token' | 'session' | 'client' | 'public';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface SuccessAnswer {
  readonly description: string;
  /** JSON body; absent for 204, PDFs and pages. */
  readonly codec?: Codec;
  /** Defaults to `application/json` when there is a codec. */
  readonly contentType?: 'application/json' | 'application/pdf' | 'text/html' | 'text/plain' | 'image/png';
  /** A file of one of several types, each listed (an attachment, ADR 3920): instead of `contentType`. */
  readonly fileTypes?: readonly string[];
  /** 201 with the new resource's `Location`; 303 with where the browser goes. */
  readonly location?: boolean;
}

export interface QueryParameter {
  readonly description: string;
  readonly schema: Readonly<Record<string, unknown>>;
  readonly required?: boolean;
}

export interface Operation {
  readonly method: Method;
  /** OpenAPI path template, e.g. `/v1.1/requests/{request_id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly auth: Auth;
  /** Accepts `Idempotency-Key` and may answer `Idempotent-Replayed: true`. */
  readonly idempotent?: boolean;
  /** Path parameters, by name: what each names. */
  readonly params?: Readonly<Record<string, { readonly description: string; readonly integer?: boolean }>>;
  readonly query?: Readonly<Record<string, QueryParameter>>;
  readonly body?: {
    readonly codec: Codec;
    readonly required?: boolean;
    /** `application/pdf`: the file itself, whatever `codec` says. */
    readonly contentType?: 'application/json' | 'application/x-www-form-urlencoded' | 'application/pdf';
    /** Also taken as `multipart/form-data`, carrying files beside the same fields (ADR 3920). */
    readonly withFiles?: true;
  };
  readonly responses: Readonly<Record<number, SuccessAnswer>>;
  /** The problem codes this operation can answer besides those its `auth` and body imply. */
  readonly problems: readonly ProblemCode[];
  /** Error answers that are not problems (RFC 6749 §5.2, signer pages): status → answer. */
  readonly otherErrors?: Readonly<Record<number, SuccessAnswer>>;
}

export const SITE_ID = { description: 'The Site (an integer id).', integer: true } as const;

/** `state=`: only the items of a list in one of `states`. */
export const stateQuery = (states: readonly string[]): QueryParameter => ({
  description: 'Only items in this state.',
  schema: { type: 'string', enum: [...states] },
});

export const PAGE_QUERY: Readonly<Record<string, QueryParameter>> = {
  page: { description: 'Page number, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } },
  per_page: {
    description: 'Items per page, 1 to 100.',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
};

/**
 * `created_from` and `created_before` of a list (ADR 3370): `items` and the verb that dates
 * them, e.g. `Requests created`, `bulk sends started`.
 */
export const createdQuery = (items: string): Readonly<Record<string, QueryParameter>> => ({
  created_from: {
    description:
      `Only the ${items} at or after this instant (ISO-8601 with a time zone; a \`+\` in an offset ` +
      'written `%2B`). With `created_before`, a half-open interval: consecutive ones never overlap.',
    schema: { type: 'string', format: 'date-time' },
  },
  created_before: {
    description:
      `Only the ${items} before this instant (ISO-8601 with a time zone). Must be later than ` +
      '`created_from` when both are given.',
    schema: { type: 'string', format: 'date-time' },
  },
});
