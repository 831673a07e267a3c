import type { AccountUserView } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import { postButton } from '../table.js';

/**
 * What each button of a user's row asks auth to change (the body of `PATCH
 * /v1.1/account/users/:id`), and the `?done=` notice its redirect names.
 */
export const USER_CHANGES = {
  disable: { body: { disabled: true }, done: 'disabled' },
  enable: { body: { disabled: false }, done: 'enabled' },
  'make-admin': { body: { admin: true }, done: 'made-admin' },
  'remove-admin': { body: { admin: false }, done: 'removed-admin' },
} as const;
type UserChangeName = keyof typeof USER_CHANGES;

const action = (deps: WebDeps, user: AccountUserView, change: UserChangeName): string =>
  `${deps.base}/users/${encodeURIComponent(user.id)}/${change}`;

/**
 * The buttons of a user's row. A colleague: **Disable** one who left (their sessions end,
 * their tokens stop) or **Enable** them again (ADR 3040), and **Make admin** or **Remove
 * admin** (ADR 3060). The visitor's own row: no Disable (auth refuses it), but **Step down
 * as admin** unless `soleAdmin` (auth would refuse it: the account keeps an enabled admin;
 * it still does if another admin left between this page and the click).
 */
export const userActions = (
  deps: WebDeps,
  visitor: Visitor,
  user: AccountUserView,
  soleAdmin: boolean,
): Html => {
  const csrf = csrfField(visitor.csrf);
  if (user.id === visitor.me.user.id)
    return html`<span class="hint">${soleAdmin && user.admin ? 'you, the only admin' : 'you'}</span> ${
        user.admin && !soleAdmin
          ? postButton({
              action: action(deps, user, 'remove-admin'),
              csrf,
              label: 'Step down as admin',
              ariaLabel: 'Step down as admin',
            })
          : ''
      }`;
  const disable = user.disabled_at === null;
  return html`${postButton({
    action: action(deps, user, disable ? 'disable' : 'enable'),
    csrf,
    label: disable ? 'Disable' : 'Enable',
    ariaLabel: `${disable ? 'Disable' : 'Enable'} ${user.email}`,
  })}
  ${
    user.admin
      ? postButton({
          action: action(deps, user, 'remove-admin'),
          csrf,
          label: 'Remove admin',
          ariaLabel: `Remove admin ${user.email}`,
        })
      : // Giving someone the role is no danger to them, so it looks like Resend, not Disable.
        postButton({
          action: action(deps, user, 'make-admin'),
          csrf,
          label: 'Make admin',
          ariaLabel: `Make admin ${user.email}`,
          kind: 'secondary',
        })
  }`;
};
