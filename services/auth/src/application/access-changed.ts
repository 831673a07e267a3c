import { ACCESS_CHANGED, type AccessChanged } from '@esign/contracts';
import type { AccessNotice } from '../domain/account-users.js';
import type { User } from '../domain/model.js';
import type { Deps } from './deps.js';

/**
 * The events that e-mail each notice of a change to `user` (ADRs 3060, 3120), written to
 * the outbox in the change's transaction: `by` an admin's address, or an operator.
 */
export const accessChangedEvents = (
  deps: Pick<Deps, 'secrets'>,
  notices: readonly AccessNotice[],
  change: {
    readonly accountName: string;
    readonly user: User;
    readonly by: { readonly admin: string } | 'operator';
    readonly at: Date;
  },
): AccessChanged[] =>
  notices.map((notice) => ({
    id: deps.secrets.uuid(),
    type: ACCESS_CHANGED,
    occurred_at: change.at.toISOString(),
    aggregate_id: change.user.id,
    data: {
      ...notice,
      account_name: change.accountName,
      user: change.user.email,
      ...(change.by === 'operator' ? { by: 'operator', by_operator: true } : { by: change.by.admin }),
    },
  }));
