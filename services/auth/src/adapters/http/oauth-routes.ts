import type { IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import { OAUTH_TOKEN_PATH, type OAuthErrorBody, type OAuthTokenResponse } from '@esign/contracts';
import type { AppContext, AppState } from '@esign/platform';
import { clientCredentialsGrant } from '../../application/client-credentials.js';
import type { Deps } from '../../application/deps.js';
import { admitAnonymous } from '../../application/admit-anonymous.js';
import { clientAddress } from './client-address.js';
import { run } from './request.js';

/** Token requests are a few hundred bytes; anything much larger is not one. */
const BODY_LIMIT = 16 * 1024;

/** An RFC 6749 §5.2 error on its way to the client. */
class OAuthFailure extends Error {
  constructor(
    readonly body: OAuthErrorBody,
    readonly status = 400,
  ) {
    super(body.error);
  }
}

const fail = (error: OAuthErrorBody['error'], description: string, status = 400) =>
  new OAuthFailure({ error, error_description: description }, status);

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BODY_LIMIT) throw fail('invalid_request', 'the request body is too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw fail('invalid_request', 'the request body is too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

/**
 * The request's parameters: form-encoded as RFC 6749 requires, or a JSON object of
 * strings for clients that find that easier. A parameter given twice is refused (§3.2).
 */
const paramsOf = async (ctx: AppContext): Promise<Map<string, string>> => {
  const raw = (await readBody(ctx.req)).toString('utf8');
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

/** RFC 6749 §2.3: exactly one way of authenticating the client. */
const clientOf = (ctx: AppContext, params: Map<string, string>): { id: string; secret: string } => {
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
  if (id === undefined || secret === undefined)
    throw fail(
      'invalid_client',
      'client authentication is required (HTTP Basic, or client_id and client_secret)',
      401,
    );
  return { id, secret };
};

/** `POST /oauth/token`: the client-credentials grant, speaking RFC 6749 §5.1/§5.2 rather than problems. */
export const oauthRoutes = (
  router: Router<AppState>,
  deps: Deps,
  options: { readonly trustedProxyHops: number },
): void => {
  router.post(OAUTH_TOKEN_PATH, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    // Over the limits: 429 problem+json with Retry-After (RFC 6749 defines no error for it).
    await run(
      admitAnonymous(deps)({ door: 'oauth_token', client: clientAddress(ctx, options.trustedProxyHops) }),
    );
    try {
      const params = await paramsOf(ctx);
      const grantType = params.get('grant_type');
      if (grantType === undefined) throw fail('invalid_request', 'grant_type is required');
      if (grantType !== 'client_credentials')
        throw fail('unsupported_grant_type', 'only the client_credentials grant is supported');
      const client = clientOf(ctx, params);
      if ((params.get('scope') ?? '').trim() !== '')
        throw fail('invalid_scope', 'this server defines no scopes: a token reaches the sites of its user');
      const result = await clientCredentialsGrant(deps)({
        clientId: client.id,
        clientSecret: client.secret,
      })();
      if (E.isLeft(result)) {
        throw result.left._tag === 'InvalidClient'
          ? fail('invalid_client', 'unknown client or wrong client secret', 401)
          : fail('unauthorized_client', result.left.reason);
      }
      const issued = result.right;
      const body: OAuthTokenResponse = {
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: Math.round(
          (issued.record.expiresAt.getTime() - issued.record.createdAt.getTime()) / 1000,
        ),
      };
      ctx.body = body;
    } catch (error) {
      if (!(error instanceof OAuthFailure)) throw error;
      ctx.status = error.status;
      if (error.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="esign", charset="UTF-8"');
      ctx.type = 'application/json';
      ctx.body = error.body;
    }
  });
};
