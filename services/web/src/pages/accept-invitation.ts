import type Router from '@koa/router';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { InvitationAcceptedView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import { COOKIES, readCookie, setCookie } from '../cookies.js';
import type { WebDeps } from '../context.js';
import { postedAnonymously, preSessionToken } from '../guard.js';
import { html, type Html } from '../html.js';
import { fieldErrors, page, problemSummary } from '../layout.js';
import { NEW_PASSWORD_FIELD_IDS, newPasswordFields, newPasswordsDiffer } from './new-password-fields.js';

/** The API names the password `password`; the page's field is the shared `new_password`. */
const FIELD_IDS = { password: NEW_PASSWORD_FIELD_IDS.new_password, ...NEW_PASSWORD_FIELD_IDS };

/** Who the accepted invitation made, for the sign-in page's notice. */
export interface Joined {
  readonly account: string;
  readonly email: string;
  /** The invitation made them an admin of the account (ADR 3090). */
  readonly admin: boolean;
}

/**
 * The sign-in page's "You joined …" notice travels in a short-lived HttpOnly cookie, not
 * in its address: a link of anyone's making cannot put words of theirs on that page.
 */
const rememberJoined = (ctx: Koa.Context, deps: WebDeps, joined: Joined): void =>
  setCookie(
    ctx,
    deps.cookies,
    COOKIES.joined,
    Buffer.from(JSON.stringify(joined)).toString('base64url'),
    600,
  );

/** What `rememberJoined` kept, if this browser holds it. */
export const joinedOf = (ctx: Koa.Context): Joined | undefined => {
  const raw = readCookie(ctx, COOKIES.joined);
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { account, email, admin } = value as Record<string, unknown>;
    return typeof account === 'string' && typeof email === 'string'
      ? { account, email, admin: admin === true }
      : undefined;
  } catch {
    return undefined;
  }
};

/** A link that cannot work any more (or never did): unknown, used, revoked, replaced, expired. */
const isDeadLink = (problem: ApiProblem | undefined): boolean =>
  problem?.code === 'invalid_invitation_token' || (problem?.errors ?? []).some((e) => e.path === 'token');

const deadLink = (deps: WebDeps, problem: ApiProblem): Html =>
  html`<div class="errors" role="alert">
      <p>${problem.detail ?? problem.title}</p>
      <p>
        This invitation link no longer works. Ask the person who invited you to send you a new invitation; the
        link in it works for 7 days.
      </p>
    </div>
    <p>Already joined? <a href="${deps.base}/sign-in">Sign in</a></p>`;

const emailTaken = (deps: WebDeps, problem: ApiProblem): Html =>
  html`<div class="errors" role="alert">
      <p>${problem.detail ?? problem.title}</p>
      <p>A user already has the e-mail address this invitation was sent to, so no new user was made.</p>
    </div>
    <p>
      <a href="${deps.base}/sign-in">Sign in</a> with that address, or
      <a href="${deps.base}/forgot-password">choose a new password</a> if you have forgotten it.
    </p>`;

const incomplete = (deps: WebDeps): Html =>
  html`<div class="errors" role="alert">
      <p>
        This link is incomplete: it has no invitation in it. Open the whole link from the invitation e-mail,
        or copy all of it into the address bar.
      </p>
    </div>
    <p>Already joined? <a href="${deps.base}/sign-in">Sign in</a></p>`;

const acceptPage = (ctx: Koa.Context, deps: WebDeps, token: string, found?: ApiProblem): string => {
  const pre = preSessionToken(ctx, deps);
  const errors = fieldErrors(found);
  const password = errors.get('password');
  const fieldsErrors = password === undefined ? errors : new Map([...errors, ['new_password', password]]);
  const body =
    token === ''
      ? incomplete(deps)
      : found !== undefined && isDeadLink(found)
        ? deadLink(deps, found)
        : found?.code === 'email_taken'
          ? emailTaken(deps, found)
          : html`<p>
                You were invited to join an account on E-sign. Choose a password to finish: you will then sign
                in with the e-mail address the invitation was sent to and this password.
              </p>
              ${problemSummary(found, FIELD_IDS)}
              <form method="post" action="${deps.base}/accept-invitation" novalidate class="panel">
                <input type="hidden" name="_csrf" value="${pre}" />
                <input type="hidden" name="token" value="${token}" />
                ${newPasswordFields(fieldsErrors, { password: 'Password', confirm: 'Confirm password' })}
                <button type="submit">Join the account</button>
                <span class="hint" role="status" data-busy-status></span>
              </form>`;
  return page({
    base: deps.base,
    title: 'Accept the invitation',
    body: html`<h1>Accept the invitation</h1>
      ${body}`,
  });
};

/**
 * Accepting an invitation to an account (ADR 3030): the e-mailed link opens this page,
 * no session needed; the invitee chooses a password (twice) and becomes a user of the
 * account, then signs in. As on the reset-password page, the link's token stays in the
 * form and is never sent anywhere else (`Referrer-Policy: same-origin`, no third party).
 */
export const acceptInvitationRoutes = (router: Router, deps: WebDeps): void => {
  router.get('/accept-invitation', (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token.trim() : '';
    if (token === '') ctx.status = 400;
    ctx.body = acceptPage(ctx, deps, token);
  });

  router.post('/accept-invitation', async (ctx) => {
    const fields = await postedAnonymously(ctx, deps);
    const token = (fields.token ?? '').trim();
    const refuse = (problem: ApiProblem | undefined, status: number) => {
      ctx.status = status;
      ctx.body = acceptPage(ctx, deps, token, problem);
    };
    if (token === '') return refuse(undefined, 400);
    const differs = newPasswordsDiffer(
      fields,
      'The password was typed differently the second time; you have not joined yet.',
    );
    if (differs !== undefined) return refuse(differs, differs.status);
    const accepted = await deps.api.call({
      method: 'POST',
      path: '/v1.1/invitations/accept',
      body: { token, password: fields.new_password ?? '' },
      codec: InvitationAcceptedView,
    });
    if (E.isLeft(accepted)) return refuse(accepted.left, accepted.left.status);
    const { account, user } = accepted.right;
    rememberJoined(ctx, deps, { account: account.name, email: user.email, admin: user.admin });
    ctx.status = 303;
    ctx.redirect(`${deps.base}/sign-in?reason=joined`);
  });
};
