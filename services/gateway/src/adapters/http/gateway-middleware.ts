import type Koa from 'koa';
import * as E from 'fp-ts/lib/Either.js';
import { sendProblem, type AppState } from '@esign/platform';
import { gatewayError, type GatewayError } from '../../domain/gateway-error.js';
import { pathSegments } from '../../domain/request-path.js';
import type { RouteMatch } from '../../domain/route-table.js';
import type { Admission, Admit } from '../../application/admit.js';
import { AuthUnavailable } from '../../ports/auth-unavailable.js';
import { problemOf } from './gateway-problems.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { socketPeer, type PeerOf } from './web-caller.js';
import type { UpstreamProxy } from './upstream-proxy.js';

type Context = Koa.ParameterizedContext<AppState>;

const refuse = (ctx: Context, error: GatewayError): void => {
  const { problem, headers } = problemOf(error);
  sendProblem(ctx, problem, headers);
};

/** Auth's outage rejects the admission; it is refused like the rest, 503 `auth_unavailable`. */
const authOutage = (error: unknown): E.Either<GatewayError, Admission> => {
  if (error instanceof AuthUnavailable) return E.left(gatewayError.authUnavailable);
  throw error;
};

/** Labels the call in metrics and logs by its route template, never by its ids. */
const label = (ctx: Context, route: string): void => {
  (ctx as { _matchedRoute?: string })._matchedRoute = route;
};

/**
 * Who is calling, for per-address limits: the peer, or behind a trusted proxy the
 * address it appended last to X-Forwarded-For (entries before it are the client's say).
 */
const clientAddressOf = (ctx: Context, trustProxy: boolean, peerOf: PeerOf): string => {
  const peer = peerOf(ctx.req);
  if (!trustProxy) return peer;
  const appended = ctx.get('x-forwarded-for').split(',').at(-1)?.trim();
  return appended === undefined || appended === '' ? peer : appended;
};

/**
 * The front door: check the path, match a route, admit the call (authenticate, scope,
 * rate-limit) and forward it. Everything the gateway refuses is a problem+json; what
 * the upstream answers is streamed back as it is.
 */
export const gatewayMiddleware =
  (deps: {
    readonly match: (method: string, segments: readonly string[]) => RouteMatch;
    readonly admit: Admit;
    readonly proxy: UpstreamProxy;
    /** Whether X-Forwarded-For comes from a proxy of ours (TRUST_PROXY). */
    readonly trustProxy?: boolean;
    /** Who the socket's peer stands for: the browser behind the web application's calls (ADR 3010). */
    readonly peerOf?: PeerOf;
  }): Koa.Middleware<AppState> =>
  async (ctx) => {
    const segments = pathSegments(ctx.path);
    if (segments === undefined) {
      label(ctx, '(invalid path)');
      return refuse(ctx, { _tag: 'InvalidPath' });
    }
    const match = deps.match(ctx.method, segments);
    if (match._tag === 'NoRoute') return refuse(ctx, { _tag: 'NoRoute' });
    if (match._tag === 'UnsupportedVersion') return refuse(ctx, match);
    if (match._tag === 'MethodNotAllowed') {
      label(ctx, '(method not allowed)');
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        ctx.set('Allow', match.allow.join(', '));
        return;
      }
      return refuse(ctx, { _tag: 'MethodNotAllowed', allow: match.allow });
    }
    label(ctx, match.route.path);

    const admission = await deps
      .admit({
        route: match.route,
        site: match.site,
        authorization: ctx.get('authorization') || undefined,
        clientAddress: clientAddressOf(ctx, deps.trustProxy ?? false, deps.peerOf ?? socketPeer),
      })()
      .catch(authOutage);
    if (E.isLeft(admission)) return refuse(ctx, admission.left);
    ctx.set(rateLimitHeaders(admission.right.rate));

    const outcome = await deps.proxy.forward({
      req: ctx.req,
      res: ctx.res,
      upstream: match.route.upstream,
      path: ctx.path,
      querystring: ctx.querystring,
      requestId: ctx.state.requestId,
      principal: admission.right.forwardedPrincipal,
      uploads: match.route.uploads === true,
    });
    switch (outcome._tag) {
      case 'Answered':
        ctx.respond = false;
        return;
      case 'ClientGone':
        ctx.respond = false;
        // nginx's "client closed request", so metrics tell these apart from answers.
        ctx.res.statusCode = 499;
        ctx.res.destroy();
        return;
      case 'Refused':
        return refuse(ctx, outcome.error);
    }
  };
