import { problem, type Problem } from '@esign/contracts';
import type { TokenRejection } from '../../domain/access-token.js';
import type { GatewayError } from '../../domain/gateway-error.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

export interface RenderedProblem {
  readonly problem: Problem;
  readonly headers: Record<string, string>;
}

const challenge = (error?: string, description?: string): string =>
  error === undefined
    ? 'Bearer realm="esign"'
    : `Bearer realm="esign", error="${error}", error_description="${description ?? ''}"`;

/** Seconds a client should wait before retrying when something behind the gateway is down. */
const RETRY_AFTER_SECONDS = '2';

const unauthorized = (code: string, detail: string): RenderedProblem => ({
  problem: problem({ status: 401, code, title: 'Unauthorized', detail }),
  headers: { 'WWW-Authenticate': challenge('invalid_token', detail) },
});

const tokenRejected = (reason: TokenRejection): RenderedProblem => {
  switch (reason) {
    case 'malformed':
      return unauthorized('malformed_token', 'The access token is not a well-formed JWT.');
    case 'expired':
      return unauthorized('token_expired', 'The access token has expired.');
    case 'invalid':
      return unauthorized('invalid_token', 'The access token is not valid.');
  }
};

/** The one table from the gateway's own refusals to HTTP. */
export const problemOf = (error: GatewayError): RenderedProblem => {
  switch (error._tag) {
    case 'InvalidPath':
      return {
        problem: problem({
          status: 400,
          code: 'invalid_path',
          title: 'Invalid path',
          detail: 'The path has an empty or dot segment, an encoded slash or a malformed escape.',
        }),
        headers: {},
      };
    case 'NoRoute':
      return {
        problem: problem({ status: 404, code: 'not_found', title: 'Not found', detail: 'No such resource.' }),
        headers: {},
      };
    case 'UnsupportedVersion':
      return {
        problem: problem({
          status: 404,
          code: 'unsupported_version',
          title: 'Not found',
          detail: `This API has no version ${error.version}; it serves ${error.served.join(', ')} (the first segment of every path).`,
          errors: [{ path: 'version', message: `must be ${error.served.join(' or ')}` }],
        }),
        headers: {},
      };
    case 'MethodNotAllowed':
      return {
        problem: problem({
          status: 405,
          code: 'method_not_allowed',
          title: 'Method not allowed',
          detail: `Allowed: ${error.allow.join(', ')}.`,
        }),
        headers: { Allow: error.allow.join(', ') },
      };
    case 'MissingToken':
      return {
        problem: problem({
          status: 401,
          code: 'missing_token',
          title: 'Unauthorized',
          detail: 'Send an access token: Authorization: Bearer <ACCESS_TOKEN>.',
        }),
        headers: { 'WWW-Authenticate': challenge() },
      };
    case 'TokenRejected':
      return tokenRejected(error.reason);
    case 'TokenInactive':
      return unauthorized('token_inactive', 'The access token has been revoked or is no longer valid.');
    case 'SiteNotFound':
      // Deliberately the same whether the site is another account's, unknown or not an id.
      return {
        problem: problem({ status: 404, code: 'not_found', title: 'Not found', detail: 'No such resource.' }),
        headers: {},
      };
    case 'RateLimited':
      return {
        problem: problem({
          status: 429,
          code: 'rate_limited',
          title: 'Too many requests',
          detail: `Rate limit reached; retry in ${error.retryAfterSeconds} s.`,
        }),
        headers: { 'Retry-After': String(error.retryAfterSeconds), ...rateLimitHeaders(error.status) },
      };
    case 'PayloadTooLarge':
      return {
        problem: problem({
          status: 413,
          code: 'payload_too_large',
          title: 'Payload too large',
          detail: `The request body is larger than ${error.limitBytes} bytes.`,
        }),
        // The rest of an oversized body is not worth reading: end the connection.
        headers: { Connection: 'close' },
      };
    case 'AuthUnavailable':
      return {
        problem: problem({
          status: 503,
          code: 'auth_unavailable',
          title: 'Service unavailable',
          detail: 'The access token cannot be checked right now; try again shortly.',
        }),
        headers: { 'Retry-After': RETRY_AFTER_SECONDS },
      };
    case 'UpstreamUnavailable':
      return {
        problem: problem({
          status: 503,
          code: 'upstream_unavailable',
          title: 'Service unavailable',
          detail: `The ${error.upstream} service cannot be reached; the call was not processed. Try again shortly.`,
        }),
        headers: { 'Retry-After': RETRY_AFTER_SECONDS },
      };
    case 'UpstreamTimeout':
      return {
        problem: problem({
          status: 503,
          code: 'upstream_timeout',
          title: 'Service unavailable',
          detail: `The ${error.upstream} service did not answer in time; the call may or may not have taken effect.`,
        }),
        headers: { 'Retry-After': RETRY_AFTER_SECONDS },
      };
  }
};
