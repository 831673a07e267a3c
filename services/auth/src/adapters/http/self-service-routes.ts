import type Router from '@koa/router';
import {
  ChangePasswordBody,
  CreateAppBody,
  CreateTokenBody,
  isUuid,
  PasswordConfirmationBody,
  SignInBody,
  UpdateAppBody,
  type ClientSecretView,
  type CurrentSessionView,
  type SessionAccessTokenView,
  type SessionView,
} from '@esign/contracts';
import { invalidQuery, type AppContext, type AppState } from '@esign/platform';
import { authenticateSession, signOut } from '../../application/authenticate-session.js';
import { removeClientSecret, setClientSecret } from '../../application/client-secret.js';
import { createAccessToken } from '../../application/create-access-token.js';
import { createApp, setCallbackUrl } from '../../application/create-app.js';
import { currentSession } from '../../application/current-session.js';
import { deleteApp } from '../../application/delete-app.js';
import type { Deps } from '../../application/deps.js';
import { findOwnApp, listOwnApps } from '../../application/own-app.js';
import { admitAnonymous } from '../../application/admit-anonymous.js';
import { sessionAccessToken } from '../../application/session-access-token.js';
import { signIn } from '../../application/sign-in.js';
import { findOwnToken, listOwnTokens, revokeOwnToken } from '../../application/tokens.js';
import { changeOwnPassword } from '../../application/users.js';
import type { SessionUser } from '../../domain/model.js';
import { clientAddress } from './client-address.js';
import { bearerOf, bodyOf, pageOf, pageView, run } from './request.js';
import {
  appView,
  createdTokenView,
  passwordChangedView,
  tokenView,
  userView,
} from '../../application/views.js';

/**
 * The self-service API the spec describes: sign in, make a Developer App, re-enter the
 * password to make an access token (shown once), list and revoke tokens. The gateway
 * forwards these paths without checking a bearer token; the session credential is
 * checked here, on every call.
 */
export const selfServiceRoutes = (
  router: Router<AppState>,
  deps: Deps,
  options: { readonly trustedProxyHops: number },
): void => {
  const session = (ctx: AppContext): Promise<SessionUser> =>
    run(authenticateSession(deps)(bearerOf(ctx.get('authorization'))));

  router.post('/v1.1/sessions', async (ctx) => {
    const client = clientAddress(ctx, options.trustedProxyHops);
    await run(admitAnonymous(deps)({ door: 'sign_in', client }));
    const body = bodyOf(SignInBody, ctx);
    const signedIn = await run(signIn(deps)({ ...body, client, userAgent: ctx.get('user-agent') }));
    const view: SessionView = {
      session_token: signedIn.sessionToken,
      token_type: 'Bearer',
      expires_at: signedIn.expiresAt.toISOString(),
      user: userView(signedIn.user),
    };
    ctx.status = 201;
    ctx.body = view;
  });

  router.get('/v1.1/sessions/current', async (ctx) => {
    const current = await run(currentSession(deps)(await session(ctx)));
    const view: CurrentSessionView = {
      user: userView({
        id: current.session.userId,
        email: current.session.email,
        accountId: current.session.accountId,
      }),
      sites: current.sites.map((s) => ({ id: s.id, name: s.name })),
      expires_at: current.session.expiresAt.toISOString(),
      account_admin: current.session.accountAdmin,
    };
    ctx.body = view;
  });

  router.post('/v1.1/sessions/current/access-token', async (ctx) => {
    const issued = await run(sessionAccessToken(deps)(await session(ctx)));
    const view: SessionAccessTokenView = {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      expires_at: issued.expiresAt.toISOString(),
    };
    ctx.status = 201;
    ctx.body = view;
  });

  router.post('/v1.1/sessions/current/password', async (ctx) => {
    const user = await session(ctx);
    const body = bodyOf(ChangePasswordBody, ctx);
    const changed = await run(
      changeOwnPassword(deps)({
        session: user,
        currentPassword: body.current_password,
        newPassword: body.new_password,
      }),
    );
    ctx.body = passwordChangedView(changed);
  });

  router.delete('/v1.1/sessions/current', async (ctx) => {
    await run(signOut(deps)(await session(ctx)));
    ctx.status = 204;
  });

  router.post('/v1.1/apps', async (ctx) => {
    const user = await session(ctx);
    const body = bodyOf(CreateAppBody, ctx);
    const app = await run(
      createApp(deps)({ userId: user.userId, name: body.name, callbackUrl: body.callback_url ?? null }),
    );
    ctx.status = 201;
    ctx.set('Location', `/v1.1/apps/${app.id}`);
    ctx.body = appView(app);
  });

  router.get('/v1.1/apps', async (ctx) => {
    const user = await session(ctx);
    const page = pageOf(ctx.query);
    ctx.body = pageView(page, await run(listOwnApps(deps)(user.userId, page)), appView);
  });

  router.get('/v1.1/apps/:id', async (ctx) => {
    const user = await session(ctx);
    ctx.body = appView(await run(findOwnApp(deps)(user.userId, ctx.params.id!)));
  });

  router.patch('/v1.1/apps/:id', async (ctx) => {
    const user = await session(ctx);
    const body = bodyOf(UpdateAppBody, ctx);
    ctx.body = appView(await run(setCallbackUrl(deps)(user.userId, ctx.params.id!, body.callback_url)));
  });

  router.delete('/v1.1/apps/:id', async (ctx) => {
    const user = await session(ctx);
    await run(deleteApp(deps)(user.userId, ctx.params.id!));
    ctx.status = 204;
  });

  router.post('/v1.1/apps/:id/client-secret', async (ctx) => {
    const user = await session(ctx);
    const body = bodyOf(PasswordConfirmationBody, ctx);
    const issued = await run(
      setClientSecret(deps)({ session: user, appId: ctx.params.id!, password: body.password }),
    );
    const view: ClientSecretView = {
      client_id: issued.clientId,
      client_secret: issued.clientSecret,
      created_at: issued.createdAt.toISOString(),
    };
    ctx.status = 201;
    ctx.body = view;
  });

  router.delete('/v1.1/apps/:id/client-secret', async (ctx) => {
    const user = await session(ctx);
    await run(removeClientSecret(deps)(user.userId, ctx.params.id!));
    ctx.status = 204;
  });

  router.post('/v1.1/apps/:id/tokens', async (ctx) => {
    const user = await session(ctx);
    const body = bodyOf(CreateTokenBody, ctx);
    const issued = await run(
      createAccessToken(deps)({
        session: user,
        appId: ctx.params.id!,
        password: body.password,
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.expires_in_days === undefined ? {} : { expiresInDays: body.expires_in_days }),
        ...(body.site_ids === undefined ? {} : { siteIds: body.site_ids }),
        ...(body.test_mode_only === undefined ? {} : { testModeOnly: body.test_mode_only }),
      }),
    );
    ctx.status = 201;
    ctx.set('Location', `/v1.1/tokens/${issued.record.id}`);
    ctx.body = createdTokenView(issued, deps.clock.now());
  });

  router.get('/v1.1/apps/:id/tokens', async (ctx) => {
    const user = await session(ctx);
    const page = pageOf(ctx.query);
    const app = await run(findOwnApp(deps)(user.userId, ctx.params.id!));
    const now = deps.clock.now();
    ctx.body = pageView(page, await run(listOwnTokens(deps)(user.userId, { appId: app.id }, page)), (t) =>
      tokenView(t, now),
    );
  });

  router.get('/v1.1/tokens', async (ctx) => {
    const user = await session(ctx);
    const page = pageOf(ctx.query);
    const appId = ctx.query.app_id;
    if (appId !== undefined && (typeof appId !== 'string' || !isUuid(appId)))
      throw invalidQuery([{ path: 'app_id', message: 'must be an app id' }]);
    const now = deps.clock.now();
    ctx.body = pageView(
      page,
      await run(listOwnTokens(deps)(user.userId, appId === undefined ? {} : { appId }, page)),
      (t) => tokenView(t, now),
    );
  });

  router.get('/v1.1/tokens/:id', async (ctx) => {
    const user = await session(ctx);
    ctx.body = tokenView(await run(findOwnToken(deps)(user.userId, ctx.params.id!)), deps.clock.now());
  });

  router.delete('/v1.1/tokens/:id', async (ctx) => {
    const user = await session(ctx);
    await run(revokeOwnToken(deps)(user.userId, ctx.params.id!));
    ctx.status = 204;
  });
};
