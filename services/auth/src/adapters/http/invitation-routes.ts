import type Router from '@koa/router';
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  type InvitationAcceptedView,
  type InvitationView,
} from '@esign/contracts';
import type { AppState } from '@esign/platform';
import { admitAnonymous } from '../../application/admit-anonymous.js';
import { authenticateSession } from '../../application/authenticate-session.js';
import type { Deps } from '../../application/deps.js';
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  revokeInvitation,
} from '../../application/invitations.js';
import type { Invitation } from '../../ports/invitations.js';
import { clientAddress } from './client-address.js';
import { bearerOf, bodyOf, pageOf, pageView, run } from './request.js';

const invitationView = (i: Invitation): InvitationView => ({
  id: i.id,
  email: i.email,
  site_ids: [...i.siteIds],
  admin: i.admin,
  invited_by: i.invitedBy,
  created_at: i.createdAt.toISOString(),
  expires_at: i.expiresAt.toISOString(),
});

/**
 * Invitations to join an account (ADR 3030): account admins make, list and revoke them
 * with their session; the invitee accepts with the e-mailed link's token and no
 * credential, which counts against their client's anonymous limit as signing in does.
 */
export const invitationRoutes = (
  router: Router<AppState>,
  deps: Deps,
  options: { readonly trustedProxyHops: number },
): void => {
  const session = (header: string | undefined) => run(authenticateSession(deps)(bearerOf(header)));

  router.post('/v1.1/account/invitations', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const body = bodyOf(CreateInvitationBody, ctx);
    const invitation = await run(
      createInvitation(deps)(user, {
        email: body.email,
        siteIds: body.site_ids ?? [],
        admin: body.admin ?? false,
      }),
    );
    ctx.status = 201;
    ctx.body = invitationView(invitation);
  });

  router.get('/v1.1/account/invitations', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    const page = pageOf(ctx.query);
    ctx.body = pageView(page, await run(listInvitations(deps)(user, page)), invitationView);
  });

  router.delete('/v1.1/account/invitations/:invitation', async (ctx) => {
    const user = await session(ctx.get('authorization'));
    await run(revokeInvitation(deps)(user, ctx.params.invitation!));
    ctx.status = 204;
  });

  router.post('/v1.1/invitations/accept', async (ctx) => {
    await run(
      admitAnonymous(deps)({ door: 'invitation', client: clientAddress(ctx, options.trustedProxyHops) }),
    );
    const body = bodyOf(AcceptInvitationBody, ctx);
    const accepted = await run(acceptInvitation(deps)({ token: body.token, password: body.password }));
    const view: InvitationAcceptedView = {
      user: accepted.user,
      account: accepted.account,
      site_ids: [...accepted.siteIds],
    };
    ctx.status = 201;
    ctx.body = view;
  });
};
