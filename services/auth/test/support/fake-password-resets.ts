/* eslint-disable @typescript-eslint/require-await -- the fake implements async ports synchronously. */
import type { AccountEvent } from '@esign/contracts';
import type { AccountRepository } from '../../src/ports/account-repository.js';
import type { NewPasswordReset, PasswordResetStore } from '../../src/ports/password-resets.js';
import { maybe, task } from './port-task.js';

export interface FakeReset extends NewPasswordReset {
  endedAt: Date | null;
}

/**
 * Links to choose a new password in memory, with the events the outbox would have taken.
 * A password change ends the open links of its user, as the real store's transaction does
 * (`endOpen`, called by the fake account repository's `changePassword`).
 */
export const fakePasswordResets = (
  users: ReadonlyMap<string, { readonly email: string; readonly disabledAt: Date | null }>,
  accounts: () => AccountRepository,
) => {
  const resets: FakeReset[] = [];
  const outbox: AccountEvent[] = [];
  const key = (hash: Uint8Array) => Buffer.from(hash).toString('hex');
  const open = (hash: Uint8Array, at: Date) =>
    resets.find(
      (r) =>
        key(r.tokenHash) === key(hash) &&
        r.endedAt === null &&
        r.expiresAt > at &&
        users.get(r.userId)?.disabledAt === null,
    );
  const endOpen = (userId: string, at: Date) => {
    for (const r of resets) if (r.userId === userId && r.endedAt === null) r.endedAt = at;
  };
  const store: PasswordResetStore = {
    issue: (reset, event, maxPerHour) =>
      task(async () => {
        const since = reset.createdAt.getTime() - 3_600_000;
        const recent = resets.filter((r) => r.userId === reset.userId && r.createdAt.getTime() > since);
        if (recent.length >= maxPerHour) return 'too_many' as const;
        endOpen(reset.userId, reset.createdAt);
        resets.push({ ...reset, endedAt: null });
        outbox.push(event);
        return 'issued' as const;
      }),
    findOpen: (hash, at) =>
      maybe(async () => {
        const found = open(hash, at);
        return found && { userId: found.userId, email: users.get(found.userId)!.email };
      }),
    redeem: (hash, passwordHash, at, notice) =>
      maybe(async () => {
        const found = open(hash, at);
        if (found === undefined) return undefined;
        found.endedAt = at;
        const changed = await accounts().changePassword(found.userId, passwordHash, at, notice)();
        if (changed._tag === 'Left') throw new Error('unreachable');
        return changed.right;
      }),
  };
  return { store, resets, outbox, endOpen };
};
