import type { OAuthErrorBody } from '@esign/contracts';
import { readRawBody, type AppContext } from '@esign/platform';

/** Token requests are a few hundred bytes; anything much larger is not one. */
const BODY_LIMIT = 16 * 1024;

/** An RFC 6749 §5.2 error on its way to the client. */
export class OAuthFailure extends Error {
  constructor(
    readonly body: OAuthErrorBody,
    readonly status = 400,
  ) {
    super(body.error);
  }
}

export const fail = (error: OAuthErrorBody['error'], description: string, status = 400) =>
  new OAuthFailure({ error, error_description: description }, status);

/**
 * The request's parameters: form-encoded as RFC 6749 requires, or a JSON object of
 * strings for clients that find that easier. A parameter given twice is refused (§3.2).
 */
export const paramsOf = async (ctx: AppContext): Promise<Map<string, string>> => {
  const raw = (
    await readRawBody(ctx.req, BODY_LIMIT, () => fail('invalid_request', 'the request body is too large'))
  ).toString('utf8');
  const params = new Map<string, string>();
  if (ctx.request.is('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(raw)) {
      if (params.has(name)) throw fail('invalid_request', `${name} is given more than once`);
      params.set(name, value);
    }
  } else if (ctx.request.is('json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw fail('invalid_request', 'the body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw fail('invalid_request', 'the body must be a JSON object');
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') throw fail('invalid_request', `${name} must be a string`);
      params.set(name, value);
    }
  } else {
    throw fail(
      'invalid_request',
      'send the parameters as application/x-www-form-urlencoded (or application/json)',
    );
  }
  return params;
};

// RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined and base64-encoded.
const formDecode = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));

const basicCredentials = (header: string): { id: string; secret: string } | undefined => {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
};

/**
 * RFC 6749 §2.3: exactly one way of authenticating the client. With `publicAllowed`, a
 * `client_id` alone identifies a public client (the authorization-code grant with PKCE).
 */
export const clientOf = (
  ctx: AppContext,
  params: Map<string, string>,
  publicAllowed = false,
): { id: string; secret: string | undefined } => {
  const header = ctx.get('authorization');
  const inBody = params.has('client_id') || params.has('client_secret');
  if (header !== '') {
    if (inBody)
      throw fail(
        'invalid_request',
        'authenticate the client with the Authorization header or the body, not both',
      );
    const basic = basicCredentials(header);
    if (basic === undefined) throw fail('invalid_client', 'the Authorization header must be HTTP Basic', 401);
    return basic;
  }
  const id = params.get('client_id');
  const secret = params.get('client_secret');
  if (id !== undefined && secret === undefined && publicAllowed) return { id, secret: undefined };
  if (id === undefined || secret === undefined)
    throw fail(
      'invalid_client',
      'client authentication is required (HTTP Basic, or client_id and client_secret)',
      401,
    );
  return { id, secret };
};
