import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { CurrentSessionView, SessionAccessTokenView } from '@esign/contracts';
import type { ApiClient, ApiResult, Call } from './api-client.js';
import { clearCookie, COOKIES, csrfTokenOf, readCookie, setCookie, type CookieSettings } from './cookies.js';
import type { Shell } from './layout.js';

export interface WebDeps {
  readonly api: ApiClient;
  /** Where the application is mounted: `/app`. */
  readonly base: string;
  readonly cookies: CookieSettings;
  /** The origin of PUBLIC_BASE_URL: what a browser sends as `Origin` on our forms. */
  readonly publicOrigin: string;
}

/** A signed-in person, as the API describes them now. */
export interface Visitor {
  readonly sessionToken: string;
  readonly csrf: string;
  readonly me: CurrentSessionView;
  readonly site: { readonly id: number; readonly name: string } | undefined;
  readonly shell: Shell;
  /** Calls the /v1.1 API with an access token held for this session. */
  readonly api: <A>(call: Omit<Call<A>, 'bearer'>) => Promise<ApiResult<A>>;
  /** The access token the last `api` call used (for a streamed download after it). */
  readonly accessToken: () => string;
  /** Calls auth's self-service endpoints with the session credential. */
  readonly self: <A>(call: Omit<Call<A>, 'bearer'>) => Promise<ApiResult<A>>;
}

/** Forgets the browser's session and its access token. */
export const forget = (ctx: Koa.Context, deps: WebDeps): void => {
  clearCookie(ctx, deps.cookies, COOKIES.session);
  clearCookie(ctx, deps.cookies, COOKIES.api);
};

const exchange = async (
  ctx: Koa.Context,
  deps: WebDeps,
  sessionToken: string,
): Promise<ApiResult<string>> => {
  const issued = await deps.api.call({
    method: 'POST',
    path: '/v1.1/sessions/current/access-token',
    bearer: sessionToken,
    codec: SessionAccessTokenView,
  });
  if (E.isLeft(issued)) return issued;
  setCookie(ctx, deps.cookies, COOKIES.api, issued.right.access_token, issued.right.expires_in);
  return E.right(issued.right.access_token);
};

/**
 * The signed-in visitor, or undefined after sending the browser to the sign-in page. One
 * call per page (`GET /v1.1/sessions/current`) tells who they are and which Sites they
 * reach now, so a removed membership shows at once.
 */
export const visitorOf = async (ctx: Koa.Context, deps: WebDeps): Promise<Visitor | undefined> => {
  const sessionToken = readCookie(ctx, COOKIES.session);
  const toSignIn = (reason?: string) => {
    // After a form post the page to come back to is the one the form was on.
    const referer = ctx.method === 'GET' ? '' : ctx.get('referer');
    const back = referer === '' ? ctx.originalUrl : new URL(referer, 'http://x').pathname;
    const next = encodeURIComponent(back);
    ctx.redirect(`${deps.base}/sign-in?next=${next}${reason ? `&reason=${reason}` : ''}`);
  };
  if (sessionToken === undefined) {
    toSignIn();
    return undefined;
  }
  const me = await deps.api.call({
    method: 'GET',
    path: '/v1.1/sessions/current',
    bearer: sessionToken,
    codec: CurrentSessionView,
  });
  if (E.isLeft(me)) {
    if (me.left.status === 401 || me.left.status === 403) {
      forget(ctx, deps);
      toSignIn('ended');
      return undefined;
    }
    throw Object.assign(new Error(me.left.detail ?? me.left.title), { problem: me.left });
  }
  const chosen = Number(readCookie(ctx, COOKIES.site));
  const site = me.right.sites.find((s) => s.id === chosen) ?? me.right.sites[0];
  const csrf = csrfTokenOf(sessionToken);
  let accessToken = readCookie(ctx, COOKIES.api);
  const api = async <A>(call: Omit<Call<A>, 'bearer'>): Promise<ApiResult<A>> => {
    if (accessToken === undefined) {
      const fresh = await exchange(ctx, deps, sessionToken);
      if (E.isLeft(fresh)) return fresh;
      accessToken = fresh.right;
    }
    const first = await deps.api.call({ ...call, bearer: accessToken });
    // An expired or revoked access token (the session lives on): exchange once and retry.
    if (E.isLeft(first) && first.left.status === 401) {
      const fresh = await exchange(ctx, deps, sessionToken);
      if (E.isLeft(fresh)) return fresh;
      accessToken = fresh.right;
      return deps.api.call({ ...call, bearer: accessToken });
    }
    return first;
  };
  return {
    sessionToken,
    csrf,
    me: me.right,
    site,
    shell: {
      base: deps.base,
      csrf,
      email: me.right.user.email,
      sites: me.right.sites,
      siteId: site?.id,
      accountAdmin: me.right.account_admin,
    },
    api,
    accessToken: () => accessToken ?? '',
    self: (call) => deps.api.call({ ...call, bearer: sessionToken }),
  };
};

/**
 * Makes the visitor's Site `siteId` their current one, as the header's Site switch does
 * (the site cookie, read back by `visitorOf`); false, changing nothing, when it is not a
 * Site of theirs.
 */
export const switchSite = (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, siteId: string): boolean => {
  const site = visitor.me.sites.find((s) => String(s.id) === siteId);
  if (site === undefined) return false;
  setCookie(ctx, deps.cookies, COOKIES.site, String(site.id), 365 * 86_400);
  return true;
};
