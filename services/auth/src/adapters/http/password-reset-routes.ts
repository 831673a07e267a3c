import type Router from '@koa/router';
import {
  PasswordResetConfirmBody,
  PasswordResetRequestBody,
  type PasswordResetRequestedView,
} from '@esign/contracts';
import type { AppState } from '@esign/platform';
import { admitAnonymous } from '../../application/admit-anonymous.js';
import type { Deps } from '../../application/deps.js';
import {
  PASSWORD_RESET_TTL_SECONDS,
  requestPasswordReset,
  resetPassword,
} from '../../application/password-reset.js';
import { passwordChangedView } from '../../application/views.js';
import { clientAddress } from './client-address.js';
import { bodyOf, run } from './request.js';

/**
 * Forgotten passwords (ADR 3000): ask for a link by e-mail, then choose a new password
 * with it. No credential: each call counts against its client's anonymous limit, as
 * signing in does. The gateway forwards these paths untouched.
 */
export const passwordResetRoutes = (
  router: Router<AppState>,
  deps: Deps,
  options: { readonly trustedProxyHops: number },
): void => {
  const admit = (ctx: Parameters<typeof clientAddress>[0]) =>
    run(
      admitAnonymous(deps)({ door: 'password_reset', client: clientAddress(ctx, options.trustedProxyHops) }),
    );

  router.post('/v1.1/password-resets', async (ctx) => {
    await admit(ctx);
    const body = bodyOf(PasswordResetRequestBody, ctx);
    await run(requestPasswordReset(deps)(body.email));
    const view: PasswordResetRequestedView = { expires_in: PASSWORD_RESET_TTL_SECONDS };
    ctx.status = 202;
    ctx.body = view;
  });

  router.post('/v1.1/password-resets/confirm', async (ctx) => {
    await admit(ctx);
    const body = bodyOf(PasswordResetConfirmBody, ctx);
    const changed = await run(resetPassword(deps)({ token: body.token, newPassword: body.new_password }));
    ctx.body = passwordChangedView(changed);
  });
};
