import {
  AcceptInvitationBody,
  CreateInvitationBody,
  InvitationAcceptedView,
  InvitationList,
  InvitationView,
} from '../invitation-api.js';
import { PAGE_QUERY, type Operation } from './operation.js';
import { deleted, session } from './operations-accounts.js';

/** Account admins invite people to the account by e-mail; the invitee accepts with the link (ADR 3030). */
export const INVITATION_OPERATIONS: readonly Operation[] = [
  session({
    method: 'post',
    path: '/v1.1/account/invitations',
    operationId: 'createInvitation',
    summary: 'Invite someone to the account by e-mail',
    description:
      'Account admins only. The address is e-mailed a link to the web application’s page where the invitee ' +
      'chooses a password and becomes a user of the account, a member of the Sites in `site_ids` (the ' +
      'account’s own; none when absent), and an admin of the account with `admin: true` (ADR 3090): such an ' +
      'invitation works only while the admin who sent it is still an enabled admin of the account. ' +
      'The link works once, for 7 days. Inviting an address again ' +
      'replaces its open invitation: a new link, the old one dead. At most 20 invitations an account in ' +
      'any hour (429 `too_many_invitations` with `Retry-After`).',
    body: { codec: CreateInvitationBody },
    responses: { 201: { description: 'The invitation; its link is on its way.', codec: InvitationView } },
    problems: ['account_admin_required', 'already_account_user', 'unknown_sites', 'too_many_invitations'],
  }),
  session({
    method: 'get',
    path: '/v1.1/account/invitations',
    operationId: 'listInvitations',
    summary: 'List the account’s open invitations',
    description:
      'Account admins only. Invitations neither accepted, revoked, replaced nor expired, newest first; an ' +
      'admin invitation whose sender is no longer an enabled admin is left out (it no longer works).',
    query: PAGE_QUERY,
    responses: { 200: { description: 'One page of open invitations.', codec: InvitationList } },
    problems: ['invalid_query', 'account_admin_required'],
  }),
  session({
    method: 'delete',
    path: '/v1.1/account/invitations/{invitation_id}',
    operationId: 'revokeInvitation',
    summary: 'Revoke an invitation',
    description:
      'Account admins only. Its link stops working at once. Revoking one that is no longer open (accepted, ' +
      'revoked, replaced or expired) is fine and changes nothing.',
    params: { invitation_id: { description: 'An invitation of the account (a UUID).' } },
    responses: deleted('Revoked, or no longer open.'),
    problems: ['not_found', 'account_admin_required'],
  }),
  {
    method: 'post',
    path: '/v1.1/invitations/accept',
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation: become a user of the account',
    description:
      'The `token` from the e-mailed link and the new user’s password (12 to 1,024 characters, not the ' +
      'e-mail address). The user is made in the inviting account with the invited address, on the Sites ' +
      'the invitation names that still exist, and signs in as any user does. The link is used up. An ' +
      'admin invitation makes an admin (`user.admin`) while its sender is still an enabled admin; once ' +
      'they are not, it answers `invalid_invitation_token` and makes nothing.',
    tag: 'Account',
    auth: 'public',
    body: { codec: AcceptInvitationBody },
    responses: { 201: { description: 'The user made.', codec: InvitationAcceptedView } },
    problems: ['invalid_invitation_token', 'weak_password', 'email_taken', 'rate_limited'],
  },
];
