import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  INVITATION_ACCEPTED,
  INVITATION_TTL_SECONDS,
  USER_INVITED,
  type InvitationAccepted,
  type PageOf,
  type PageRequest,
  type UserInvited,
} from '@esign/contracts';
import { notFound, type AuthError } from '../domain/errors.js';
import type { SessionUser } from '../domain/model.js';
import { checkNewPassword, normalizePassword, weakPasswordIn } from '../domain/password-policy.js';
import type { AcceptedInvitation, Invitation } from '../ports/invitations.js';
import { adminOnly, pageOf } from './account-admin.js';
import type { Deps } from './deps.js';
import { required } from './required.js';

/** Invitations one account may send in any hour (ADR 3030): each is an e-mail to an address of the admin's choosing. */
export const INVITATIONS_PER_HOUR = 20;
export const INVITATION_PREFIX = 'inv_';

/** The web application's page an invitation's link opens (`services/web`). */
export const invitationUrl = (publicBaseUrl: string, token: string): string => {
  const url = new URL('/app/accept-invitation', publicBaseUrl);
  url.searchParams.set('token', token);
  return url.toString();
};

/** The Sites named that are not the account's, in the order named. */
const foreignSites = (deps: Deps, accountId: string, siteIds: readonly number[]) =>
  pipe(
    deps.sites.listSites({ accountId }),
    TE.map((sites) => {
      const own = new Set(sites.map((site) => site.id));
      return siteIds.filter((id) => !own.has(id));
    }),
  );

/**
 * An account admin invites an address to the account, onto some of its Sites: the address
 * is e-mailed a single-use link (7 days), through the outbox and the notifier. A user of the
 * account with that address is refused (409); an address of a user of another account is
 * invited all the same, so the answer tells no admin which addresses have a user elsewhere
 * (accepting then fails with `email_taken`, told to the invitee alone).
 */
export const createInvitation =
  (deps: Deps) =>
  (
    session: SessionUser,
    input: { readonly email: string; readonly siteIds: readonly number[] },
  ): TE.TaskEither<AuthError, Invitation> => {
    const email = input.email.toLowerCase();
    return pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => deps.accounts.findUserByEmail(email)),
      TE.flatMap((user) =>
        O.isSome(user) && user.value.accountId === session.accountId
          ? TE.left<AuthError>({ _tag: 'AlreadyAccountUser', email })
          : TE.right(undefined),
      ),
      TE.flatMap(() => foreignSites(deps, session.accountId, input.siteIds)),
      TE.flatMap((foreign) =>
        foreign.length > 0
          ? TE.left<AuthError>({ _tag: 'UnknownSites', siteIds: foreign })
          : TE.right(undefined),
      ),
      TE.flatMap(() =>
        pipe(
          deps.accounts.findAccount(session.accountId),
          required(() => notFound('account', session.accountId)),
        ),
      ),
      TE.flatMap((account) => {
        const now = deps.clock.now();
        const expiresAt = new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000);
        const token = deps.secrets.newSecret(INVITATION_PREFIX);
        const id = deps.secrets.uuid();
        const event: UserInvited = {
          id: deps.secrets.uuid(),
          type: USER_INVITED,
          occurred_at: now.toISOString(),
          aggregate_id: id,
          data: {
            email,
            account_name: account.name,
            invited_by: session.email,
            accept_url: invitationUrl(deps.policy.publicBaseUrl, token),
            expires_at: expiresAt.toISOString(),
          },
        };
        return pipe(
          deps.invitations.issue(
            {
              id,
              accountId: session.accountId,
              email,
              siteIds: input.siteIds,
              invitedBy: session.userId,
              tokenHash: deps.secrets.fingerprint(token),
              createdAt: now,
              expiresAt,
            },
            event,
            INVITATIONS_PER_HOUR,
          ),
          TE.flatMap((outcome) =>
            'issued' in outcome
              ? TE.right(outcome.issued)
              : TE.left<AuthError>({
                  _tag: 'TooManyInvitations',
                  retryAfterSeconds: Math.max(
                    1,
                    Math.ceil((outcome.tooManyUntil.getTime() - now.getTime()) / 1000),
                  ),
                }),
          ),
        );
      }),
    );
  };

/** The account's open invitations, newest first (account admins only). */
export const listInvitations =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<Invitation>> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => deps.invitations.listOpen(session.accountId, deps.clock.now())),
      TE.map((all) => pageOf(all, page)),
    );

/** Its link stops working at once; revoking one no longer open changes nothing. */
export const revokeInvitation =
  (deps: Deps) =>
  (session: SessionUser, id: string): TE.TaskEither<AuthError, void> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => deps.invitations.revoke(session.accountId, id, deps.clock.now())),
      TE.flatMap((outcome) =>
        outcome === 'unknown' ? TE.left(notFound('invitation', id)) : TE.right(undefined),
      ),
    );

/** The event that tells the inviting admin their colleague joined (ADR 3030). */
const acceptedNotice = (
  deps: Deps,
  open: { readonly id: string; readonly email: string; readonly accountName: string },
  inviterEmail: string,
  at: Date,
): InvitationAccepted => ({
  id: deps.secrets.uuid(),
  type: INVITATION_ACCEPTED,
  occurred_at: at.toISOString(),
  aggregate_id: open.id,
  data: { email: inviterEmail, account_name: open.accountName, joined: open.email },
});

/**
 * The invitee follows the link and chooses a password: they become a user of the account
 * (not an admin), on the invitation's Sites that still are the account's, and sign in as
 * any user does. The link is used up. The password is checked before anything is written,
 * so a weak one leaves the invitation open.
 */
export const acceptInvitation =
  (deps: Deps) =>
  (input: {
    readonly token: string;
    readonly password: string;
  }): TE.TaskEither<AuthError, AcceptedInvitation> => {
    const tokenHash = deps.secrets.fingerprint(input.token);
    const invalid: AuthError = { _tag: 'InvalidInvitationToken' };
    const now = deps.clock.now();
    return pipe(
      deps.invitations.findOpen(tokenHash, now),
      required(() => invalid),
      TE.flatMap((open) =>
        pipe(
          TE.fromEither(
            pipe(checkNewPassword(input.password, open.email), E.mapLeft(weakPasswordIn('password'))),
          ),
          TE.flatMap((password) => deps.hasher.hash(normalizePassword(password))),
          TE.flatMap((passwordHash) =>
            deps.invitations.accept(
              tokenHash,
              { id: deps.secrets.uuid(), passwordHash },
              now,
              open.inviterEmail === null ? undefined : acceptedNotice(deps, open, open.inviterEmail, now),
            ),
          ),
        ),
      ),
      TE.flatMap(TE.fromOption(() => invalid)),
    );
  };
