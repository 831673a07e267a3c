import type Koa from 'koa';
import {
  INVITATION_TTL_SECONDS,
  type AccountSiteView,
  type AccountUserList,
  type AccountView,
  type InvitationList,
  type InvitationView,
} from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, stateBadge, textField, time } from '../layout.js';
import { dataTable, postButton } from '../table.js';
import { adminsOf, appPage, doneNotice } from './common.js';
import { userActions } from './users-actions.js';

/** What the page shows: the account's users, its Sites (names, and the boxes to tick), open invitations. */
export interface UsersData {
  readonly users: AccountUserList;
  readonly sites: readonly AccountSiteView[];
  readonly invitations: InvitationList;
}

/** An invitation the API refused: the form comes back as it was sent, with the problem. */
export interface InviteFailure {
  readonly email: string;
  readonly siteIds: readonly number[];
  /** The "Make them an admin" box was ticked (ADR 3090). */
  readonly admin: boolean;
  readonly problem: ApiProblem;
}

const FIELD_IDS = { email: 'invite-email', site_ids: 'invite-sites', admin: 'invite-admin' };

const DONE: Record<string, string> = {
  revoked: 'The invitation was revoked: its link no longer works.',
  disabled: 'The user was disabled: their sessions ended and their access tokens stop working.',
  enabled: 'The user was enabled: they can sign in again, and their unexpired access tokens work again.',
  'made-admin': 'The user is now an admin: they manage the account’s users, invitations and Sites.',
  'removed-admin':
    'The user is no longer an admin: they keep their Sites but no longer manage the account’s people or Sites.',
};

/** The `?done=` key after the visitor stepped down: the page they see then is the one for members. */
export const STEPPED_DOWN = 'stepped-down';
const STEPPED_DOWN_DONE = {
  [STEPPED_DOWN]: 'You are no longer an admin of the account. Another admin can make you one again.',
};

/** The Sites' names in the account's order (a Site not listed, by its id). */
const siteNames = (sites: readonly AccountSiteView[], ids: readonly number[]): Html | string => {
  if (ids.length === 0) return html`<span class="hint">none</span>`;
  const known = sites.filter((s) => ids.includes(s.id));
  const others = ids.filter((id) => !known.some((s) => s.id === id));
  return [...known.map((s) => s.name), ...others.map((id) => `Site ${id}`)].join(', ');
};

const days = (invitation: InvitationView): number => {
  const span = Date.parse(invitation.expires_at) - Date.parse(invitation.created_at);
  return Math.round((Number.isFinite(span) ? span / 1000 : INVITATION_TTL_SECONDS) / 86_400);
};

/**
 * "Invitation sent to …" after the redirect, only when an open invitation of that address
 * is listed: a link of anyone's making cannot claim an invitation that was never sent.
 */
const sentNotice = (ctx: Koa.Context, data: UsersData, failed: InviteFailure | undefined): Html | '' => {
  const invited = ctx.query.invited;
  if (typeof invited !== 'string' || failed !== undefined) return '';
  const sent = data.invitations.data.find((i) => i.email.toLowerCase() === invited.toLowerCase());
  if (sent === undefined) return '';
  const role = sent.admin ? ' as an admin' : '';
  return html`<p class="success" role="status">
    Invitation sent to ${sent.email}${role}; the link works for ${days(sent)} days.
  </p>`;
};

const waitFor = (seconds: number): string => {
  const after = new Date(Date.now() + seconds * 1000).toISOString().slice(11, 16);
  const span = seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return `You can send invitations again in ${span} (after ${after} UTC).`;
};

/** A 429 names when to try again (its `Retry-After`) in the problem's own words. */
const withRetry = (problem: ApiProblem | undefined): ApiProblem | undefined =>
  problem?.status === 429 && problem.retryAfterSeconds !== undefined
    ? {
        ...problem,
        detail: `${problem.detail ?? problem.title} ${waitFor(problem.retryAfterSeconds)}`,
      }
    : problem;

/** The visitor is the account's only enabled admin, as far as the whole list shows. */
const soleAdmin = (users: AccountUserList): boolean =>
  users.data.length === users.total_count &&
  users.data.filter((u) => u.admin && u.disabled_at === null).length <= 1;

const usersTable = (deps: WebDeps, visitor: Visitor, data: UsersData): Html =>
  data.users.data.length === 0
    ? html`<p>No users yet.</p>`
    : dataTable({
        caption: 'Users of the account',
        captionHidden: true,
        region: 'Users of the account',
        columns: ['E-mail', 'Sites', 'State', 'Role', { label: 'Actions', hidden: true }],
        rows: data.users.data.map((u) => [
          u.email,
          siteNames(data.sites, u.site_ids),
          u.disabled_at === null
            ? stateBadge('active')
            : html`${stateBadge('disabled')} <span class="hint">since ${time(u.disabled_at)}</span>`,
          u.admin ? 'Admin' : 'Member',
          userActions(deps, visitor, u, soleAdmin(data.users)),
        ]),
      });

/**
 * Sends the invitation again: the invite form's fields, filled in (its role too: ADR 3090).
 * Auth replaces the open invitation of the address, so the old link stops and a new one is
 * e-mailed (ADR 3030).
 */
const resendButton = (deps: WebDeps, visitor: Visitor, invitation: InvitationView): Html =>
  html`<form method="post" action="${deps.base}/users/invitations" class="inline">
    ${csrfField(visitor.csrf)}
    <input type="hidden" name="email" value="${invitation.email}" />
    ${invitation.site_ids.map((id) => html`<input type="hidden" name="site_${id}" value="on" />`)}
    ${invitation.admin ? html`<input type="hidden" name="admin" value="on" />` : ''}
    <button type="submit" class="secondary" aria-label="Send the invitation of ${invitation.email} again">
      Resend
    </button>
  </form>`;

const invitationsTable = (deps: WebDeps, visitor: Visitor, data: UsersData): Html =>
  data.invitations.data.length === 0
    ? html`<p>No open invitations.</p>`
    : dataTable({
        caption: 'Open invitations',
        captionHidden: true,
        region: 'Open invitations',
        columns: [
          'E-mail',
          'Sites',
          'Role',
          { label: 'Invited by', wide: true },
          'Expires',
          { label: 'Actions', hidden: true },
        ],
        rows: data.invitations.data.map((i) => [
          i.email,
          siteNames(data.sites, i.site_ids),
          i.admin ? 'Admin' : 'Member',
          i.invited_by ?? html`<span class="hint">a former user</span>`,
          time(i.expires_at),
          html`${resendButton(deps, visitor, i)}
          ${postButton({
            action: `${deps.base}/users/invitations/${encodeURIComponent(i.id)}/revoke`,
            csrf: csrfField(visitor.csrf),
            label: 'Revoke',
            ariaLabel: `Revoke the invitation of ${i.email}`,
          })}`,
        ]),
      });

const siteBoxes = (visitor: Visitor, data: UsersData, failed: InviteFailure | undefined): Html => {
  if (data.sites.length === 0)
    return html`<p class="notice">
      The account has no Sites yet: the person joins none until you add them to one on the Sites page.
    </p>`;
  const error = fieldErrors(failed?.problem).get('site_ids');
  const ticked = (id: number) => (failed ? failed.siteIds.includes(id) : id === visitor.site?.id);
  const described = ['invite-sites-hint', ...(error ? ['invite-sites-error'] : [])].join(' ');
  return html`<fieldset class="checks" id="${FIELD_IDS.site_ids}" aria-describedby="${described}">
    <legend>Sites they join</legend>
    <p class="hint" id="invite-sites-hint">Their access tokens will reach these Sites. None is fine too.</p>
    ${error ? html`<p class="error" id="invite-sites-error">${error}</p>` : ''}
    ${data.sites.map(
      (s) =>
        html`<label
          ><input type="checkbox" name="site_${s.id}" value="on" ${ticked(s.id) ? html` checked` : ''} />
          ${s.name} <span class="hint">(Site ${s.id})</span></label
        >`,
    )}
  </fieldset>`;
};

/** "Make them an admin" (ADR 3090): accepting then makes an admin of the account. */
const adminBox = (failed: InviteFailure | undefined): Html => {
  const error = fieldErrors(failed?.problem).get('admin');
  const described = ['invite-admin-hint', ...(error ? ['invite-admin-error'] : [])].join(' ');
  return html`<div class="field check">
    ${error ? html`<p class="error" id="invite-admin-error">${error}</p>` : ''}
    <input
      type="checkbox"
      id="${FIELD_IDS.admin}"
      name="admin"
      value="on"
      ${failed?.admin ? html` checked` : ''}${error ? html` aria-invalid="true"` : ''}
      aria-describedby="${described}"
    />
    <label for="${FIELD_IDS.admin}">Make them an admin</label>
    <p class="hint" id="invite-admin-hint">
      An admin manages the account’s users, invitations and Sites, as you do. Leave it unticked for a member.
    </p>
  </div>`;
};

const inviteForm = (
  deps: WebDeps,
  visitor: Visitor,
  data: UsersData,
  failed: InviteFailure | undefined,
): Html =>
  html`<h2 id="invite">Invite someone</h2>
    <p>
      They are e-mailed a link to choose a password and join the account. The link works once, for
      ${Math.round(INVITATION_TTL_SECONDS / 86_400)} days. Inviting an address again sends a new link and the
      old one stops working.
    </p>
    ${problemSummary(withRetry(failed?.problem), FIELD_IDS)}
    <form method="post" action="${deps.base}/users/invitations" novalidate class="panel">
      ${csrfField(visitor.csrf)}
      ${textField({
        id: FIELD_IDS.email,
        name: 'email',
        label: 'E-mail address',
        type: 'email',
        value: failed?.email ?? '',
        autocomplete: 'off',
        required: true,
        error: fieldErrors(failed?.problem).get('email'),
      })}
      ${siteBoxes(visitor, data, failed)} ${adminBox(failed)}
      <button type="submit">Invite</button>
      <span class="hint" role="status" data-busy-status></span>
    </form>`;

const more = (list: { readonly count: number; readonly total_count: number; readonly has_more: boolean }) =>
  list.has_more ? html`<p class="hint">Showing the first ${list.count} of ${list.total_count}.</p>` : '';

/** The account's users and open invitations, and the form to invite someone (account admins). */
export const usersPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  data: UsersData,
  failed?: InviteFailure,
): void =>
  appPage(ctx, deps, visitor, {
    title: 'Users',
    section: 'users',
    ...(failed ? { status: failed.problem.status } : {}),
    body: html`<h1>Users</h1>
      ${sentNotice(ctx, data, failed)} ${doneNotice(ctx, DONE, failed)}
      <p>
        The people who sign in to your account, and the invitations not yet accepted.
        <a href="#invite">Invite someone</a> by e-mail; who is on which Site you decide on the
        <a href="${deps.base}/sites">Sites</a> page. Admins manage the account’s users, invitations and Sites;
        the account always keeps one.
      </p>
      <h2>Users of the account (${data.users.total_count})</h2>
      ${usersTable(deps, visitor, data)} ${more(data.users)}
      <h2>Open invitations (${data.invitations.total_count})</h2>
      ${invitationsTable(deps, visitor, data)} ${more(data.invitations)}
      ${inviteForm(deps, visitor, data, failed)}`,
  });

/** What someone who does not administer the account sees at /app/users (as /app/sites shows them). */
export const notAdminPage = (ctx: Koa.Context, deps: WebDeps, visitor: Visitor, account: AccountView): void =>
  appPage(ctx, deps, visitor, {
    title: 'Users',
    section: 'users',
    body: html`<h1>Users</h1>
      ${doneNotice(ctx, STEPPED_DOWN_DONE, undefined)}
      <p class="notice">
        Only an administrator of your account sees its users and invites people to it. Ask one of them to
        invite someone.
      </p>
      ${adminsOf(account)}
      <p><a href="${deps.base}/sites">Your Sites</a></p>`,
  });
