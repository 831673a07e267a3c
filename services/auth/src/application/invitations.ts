import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  ACCESS_CHANGED,
  INVITATION_ACCEPTED,
  INVITATION_TTL_SECONDS,
  USER_INVITED,
  type AccountEvent,
  type PageOf,
  type PageRequest,
  type UserInvited,
} from '@esign/contracts';
import { notFound, type AuthError } from '../domain/errors.js';
import { acceptanceAudience, invitationWorks, inviterIsAdmin } from '../domain/invitations.js';
import type { SessionUser } from '../domain/model.js';
import { checkNewPassword, normalizePassword, weakPasswordIn } from '../domain/password-policy.js';
import type { Acceptance, AcceptedInvitation, Invitation } from '../ports/invitations.js';
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
    input: { readonly email: string; readonly siteIds: readonly number[]; readonly admin: boolean },
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
            admin: input.admin,
          },
        };
        return pipe(
          deps.invitations.issue(
            {
              id,
              accountId: session.accountId,
              email,
              siteIds: input.siteIds,
              admin: input.admin,
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

/**
 * The account's open invitations that still work, newest first (account admins only): an
 * admin invitation whose sender is no longer an enabled admin is left out (ADR 3090).
 */
export const listInvitations =
  (deps: Deps) =>
  (session: SessionUser, page: PageRequest): TE.TaskEither<AuthError, PageOf<Invitation>> =>
    pipe(
      TE.fromEither(adminOnly(session)),
      TE.flatMap(() => deps.invitations.listOpen(session.accountId, deps.clock.now())),
      TE.map((all) =>
        pageOf(
          all.filter((i) => invitationWorks(i, i.inviterIsAdmin)),
          page,
        ),
      ),
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

/**
 * The events an accepted invitation writes (ADR 3030, ADR 3090): "<address> joined" to the
 * admin who sent it, and, when it made an admin, "joined as an admin" to every other
 * enabled admin. None when it no longer works: it makes an admin and its sender is no
 * longer an enabled admin of the account.
 */
const acceptanceEvents =
  (deps: Deps, at: Date) =>
  ({ invitation, users }: Acceptance): O.Option<readonly AccountEvent[]> => {
    if (!invitationWorks(invitation, inviterIsAdmin(invitation, users))) return O.none;
    const audience = acceptanceAudience(invitation, users);
    const base = { occurred_at: at.toISOString(), aggregate_id: invitation.id };
    const joined =
      audience.inviter === null
        ? []
        : [
            {
              ...base,
              id: deps.secrets.uuid(),
              type: INVITATION_ACCEPTED,
              data: {
                email: audience.inviter,
                account_name: invitation.accountName,
                joined: invitation.email,
                admin: invitation.admin,
              },
            } as const,
          ];
    const { joinedAsAdmin } = audience;
    const admins =
      joinedAsAdmin === null
        ? []
        : joinedAsAdmin.told.map(
            (email) =>
              ({
                ...base,
                id: deps.secrets.uuid(),
                type: ACCESS_CHANGED,
                data: {
                  email,
                  account_name: invitation.accountName,
                  change: 'joined_as_admin',
                  user: invitation.email,
                  by: joinedAsAdmin.by,
                },
              }) as const,
          );
    return O.some([...joined, ...admins]);
  };

/**
 * The invitee follows the link and chooses a password: they become a user of the account
 * (an admin when the invitation says so and still works), on the invitation's Sites that
 * still are the account's, and sign in as any user does. The link is used up. The
 * password is checked before anything is written, so a weak one leaves the invitation open.
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
      TE.map(O.filter((open) => invitationWorks(open, open.inviterIsAdmin))),
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
              acceptanceEvents(deps, now),
            ),
          ),
        ),
      ),
      TE.flatMap(TE.fromOption(() => invalid)),
    );
  };
