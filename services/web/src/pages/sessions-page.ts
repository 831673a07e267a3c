import type Koa from 'koa';
import type { SignedInSessionList, SignedInSessionView } from '@esign/contracts';
import { browserLabel } from '../browser-label.js';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { csrfField, time } from '../layout.js';
import { dataTable, postButton } from '../table.js';
import { appPage, doneNotice } from './common.js';

/** The `?done=` keys of the page's own buttons (`others` names its count in `?ended=`). */
export const SESSIONS_DONE = { ended: 'ended', gone: 'gone', others: 'others' } as const;

const DONE: Record<string, string> = {
  [SESSIONS_DONE.ended]: 'The session was ended: that browser is signed out.',
  [SESSIONS_DONE.gone]: 'That session had already ended: nothing more to do.',
};

/** "2 other sessions were ended." after Sign out everywhere else; the count is the API's answer. */
const othersNotice = (ctx: Koa.Context): Html | '' => {
  const ended = ctx.query.ended;
  if (ctx.query.done !== SESSIONS_DONE.others || typeof ended !== 'string' || !/^\d{1,6}$/.test(ended))
    return '';
  const count = Number(ended);
  const said =
    count === 0
      ? 'No other session was signed in: nothing was ended.'
      : count === 1
        ? '1 other session was ended: that browser is signed out.'
        : `${count} other sessions were ended: those browsers are signed out.`;
  return html`<p class="success" role="status">${said}</p>`;
};

/** When a session began, to the minute, as a button's name says it. */
const minute = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

const unknown = html`<span class="hint">unknown</span>`;

/** The browser's short label, with the whole `User-Agent` in its title. */
const browserCell = (session: SignedInSessionView): Html => {
  const label = browserLabel(session.user_agent);
  const shown =
    label === undefined ? unknown : html`<span title="${session.user_agent ?? ''}">${label}</span>`;
  return session.current ? html`${shown} <span class="state state-active">This browser</span>` : shown;
};

/** "End the session that began 2030-01-01 09:15 UTC from 192.0.2.1 (Chrome 131 on Linux)". */
const endLabel = (session: SignedInSessionView): string => {
  const from = session.client_address ?? 'an unknown address';
  const label = browserLabel(session.user_agent);
  return `End the session that began ${minute(session.created_at)} from ${from}${label ? ` (${label})` : ''}`;
};

/** This browser's row signs out (as the header does); any other's ends that session. */
const actions = (deps: WebDeps, visitor: Visitor, session: SignedInSessionView): Html =>
  session.current
    ? postButton({
        action: `${deps.base}/sign-out`,
        csrf: csrfField(visitor.csrf),
        label: 'Sign out',
        ariaLabel: 'Sign out of this browser',
        kind: 'secondary',
      })
    : postButton({
        action: `${deps.base}/sessions/${encodeURIComponent(session.id)}/end`,
        csrf: csrfField(visitor.csrf),
        label: 'End',
        ariaLabel: endLabel(session),
      });

const sessionsTable = (deps: WebDeps, visitor: Visitor, list: SignedInSessionList): Html =>
  dataTable({
    caption: 'Where you are signed in',
    captionHidden: true,
    region: 'Where you are signed in',
    columns: [
      'Began',
      'From',
      'Browser',
      'Last active',
      { label: 'Expires', wide: true },
      { label: 'Actions', hidden: true },
    ],
    rows: list.data.map((s) => [
      time(s.created_at),
      s.client_address ?? unknown,
      browserCell(s),
      s.last_active_at === null ? unknown : time(s.last_active_at),
      time(s.expires_at),
      actions(deps, visitor, s),
    ]),
  });

/** Sign out everywhere else: only while another session is signed in. */
const othersButton = (deps: WebDeps, visitor: Visitor, list: SignedInSessionList): Html | '' =>
  list.has_more || list.data.some((s) => !s.current)
    ? html`<div class="actions">
        ${postButton({
          action: `${deps.base}/sessions/end-others`,
          csrf: csrfField(visitor.csrf),
          label: 'Sign out everywhere else',
          ariaLabel: 'Sign out everywhere else',
        })}
        <span class="hint">Ends every session but this browser’s.</span>
      </div>`
    : html`<p>You are signed in in this browser only.</p>`;

/**
 * Where the user is signed in (ADR 3100), newest first, each with when it was last used
 * (ADR 3110), with a button to end each.
 */
export const sessionsPage = (
  ctx: Koa.Context,
  deps: WebDeps,
  visitor: Visitor,
  list: SignedInSessionList,
): void =>
  appPage(ctx, deps, visitor, {
    title: 'Sessions',
    section: 'none',
    body: html`<h1>Where you are signed in</h1>
      ${doneNotice(ctx, DONE, undefined)} ${othersNotice(ctx)}
      <p>
        Each time you sign in with your password a session begins, and it lasts until you sign out or it
        expires. Last active is when it was last used, to within a minute. End one left signed in on another
        computer, and that browser is signed out at once. If you do not recognise one, end it and
        <a href="${deps.base}/password">change your password</a>.
      </p>
      ${sessionsTable(deps, visitor, list)}
      ${list.has_more ? html`<p class="hint">Showing the newest ${list.count} of ${list.total_count}.</p>` : ''}
      ${othersButton(deps, visitor, list)}`,
  });
