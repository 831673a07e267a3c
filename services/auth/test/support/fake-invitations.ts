/* eslint-disable @typescript-eslint/require-await -- the fake implements async ports synchronously. */
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { AccountEvent } from '@esign/contracts';
import type { Account, Site, User } from '../../src/domain/model.js';
import type { Invitation, InvitationStore, NewInvitation } from '../../src/ports/invitations.js';
import { maybe, task } from './port-task.js';

export interface FakeInvitation extends NewInvitation {
  endedAt: Date | null;
  endReason: 'accepted' | 'revoked' | 'replaced' | null;
}

/**
 * Invitations in memory, with the events the outbox would have taken; accepting one makes
 * its user and memberships in the fake world's maps, as the real store's transaction does.
 */
export const fakeInvitations = (world: {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly users: Map<string, User & { passwordHash: string }>;
  readonly sites: ReadonlyMap<number, Site>;
  readonly members: Array<{ siteId: number; userId: string; addedAt: Date }>;
  readonly outbox: AccountEvent[];
}) => {
  const invitations: FakeInvitation[] = [];
  const key = (hash: Uint8Array) => Buffer.from(hash).toString('hex');
  const isOpen = (i: FakeInvitation, at: Date) => i.endedAt === null && i.expiresAt > at;
  const open = (hash: Uint8Array, at: Date) =>
    invitations.find((i) => key(i.tokenHash) === key(hash) && isOpen(i, at));
  const inviterIsAdmin = (i: FakeInvitation) => {
    const inviter = world.users.get(i.invitedBy);
    return inviter?.accountId === i.accountId && inviter.accountAdmin && inviter.disabledAt === null;
  };
  const view = (i: FakeInvitation): Invitation => ({
    id: i.id,
    email: i.email,
    siteIds: i.siteIds,
    admin: i.admin,
    invitedBy: world.users.get(i.invitedBy)?.email ?? null,
    inviterIsAdmin: inviterIsAdmin(i),
    createdAt: i.createdAt,
    expiresAt: i.expiresAt,
  });
  const store: InvitationStore = {
    issue: (invitation, event, maxPerHour) =>
      task(async () => {
        const since = invitation.createdAt.getTime() - 3_600_000;
        const recent = invitations.filter(
          (i) => i.accountId === invitation.accountId && i.createdAt.getTime() > since,
        );
        if (recent.length >= maxPerHour)
          return {
            tooManyUntil: new Date(Math.min(...recent.map((i) => i.createdAt.getTime())) + 3_600_000),
          };
        for (const i of invitations)
          if (i.accountId === invitation.accountId && i.email === invitation.email && i.endedAt === null) {
            i.endedAt = invitation.createdAt;
            i.endReason = 'replaced';
          }
        const kept: FakeInvitation = { ...invitation, endedAt: null, endReason: null };
        invitations.push(kept);
        world.outbox.push(event);
        return { issued: view(kept) };
      }),
    listOpen: (accountId, at) =>
      task(async () =>
        invitations
          .filter((i) => i.accountId === accountId && isOpen(i, at))
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .map(view),
      ),
    revoke: (accountId, id, at) =>
      task(async () => {
        const found = invitations.find((i) => i.id === id && i.accountId === accountId);
        if (found === undefined) return 'unknown' as const;
        if (!isOpen(found, at)) return 'not_open' as const;
        found.endedAt = at;
        found.endReason = 'revoked';
        return 'revoked' as const;
      }),
    findOpen: (hash, at) =>
      maybe(async () => {
        const found = open(hash, at);
        if (found === undefined) return undefined;
        return {
          id: found.id,
          email: found.email,
          admin: found.admin,
          inviterIsAdmin: inviterIsAdmin(found),
        };
      }),
    accept: (hash, user, at, decide) => async () => {
      const found = open(hash, at);
      if (found === undefined) return E.right(O.none);
      const account = world.accounts.get(found.accountId)!;
      const notices = decide({
        invitation: {
          id: found.id,
          email: found.email,
          accountName: account.name,
          admin: found.admin,
          invitedBy: found.invitedBy,
        },
        users: [...world.users.values()]
          .filter((u) => u.accountId === found.accountId)
          .map(({ passwordHash: _, ...u }) => u),
      });
      if (O.isNone(notices)) return E.right(O.none);
      if ([...world.users.values()].some((u) => u.email === found.email))
        return E.left({ _tag: 'EmailTaken' as const, email: found.email });
      world.users.set(user.id, {
        id: user.id,
        accountId: found.accountId,
        email: found.email,
        disabledAt: null,
        createdAt: at,
        accountAdmin: found.admin,
        passwordHash: user.passwordHash,
      });
      const siteIds = found.siteIds.filter((id) => world.sites.get(id)?.accountId === found.accountId);
      for (const siteId of siteIds) world.members.push({ siteId, userId: user.id, addedAt: at });
      found.endedAt = at;
      found.endReason = 'accepted';
      world.outbox.push(...notices.value);
      return E.right(
        O.some({
          user: { id: user.id, email: found.email, admin: found.admin },
          account: { id: account.id, name: account.name },
          siteIds: [...siteIds].sort((a, b) => a - b),
        }),
      );
    },
  };
  return { store, invitations };
};
