import type { Account, Site, User } from '../../domain/model.js';
import type { KeyState } from '../../domain/signing-keys.js';
import type { StoredKey } from '../../ports/signing-keys.js';
import type { Member } from '../../ports/site-repository.js';

/** What the operator's CLI prints of each record: more than the API shows (ids across accounts, states). */
export const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export const accountView = (a: Account) => ({
  id: a.id,
  name: a.name,
  api_access: a.apiAccess,
  created_at: iso(a.createdAt),
});

export const userView = (u: User) => ({
  id: u.id,
  account_id: u.accountId,
  email: u.email,
  disabled_at: iso(u.disabledAt),
  account_admin: u.accountAdmin,
  created_at: iso(u.createdAt),
});

export const siteView = (s: Site) => ({
  id: s.id,
  account_id: s.accountId,
  name: s.name,
  created_at: iso(s.createdAt),
});

export const memberView = (siteId: number, m: Member) => ({
  site_id: siteId,
  user_id: m.userId,
  email: m.email,
  added_at: iso(m.addedAt),
});

export const keyView = ({
  key,
  state,
  published,
}: {
  key: StoredKey;
  state: KeyState;
  published: boolean;
}) => ({
  kid: key.kid,
  state,
  published,
  created_at: iso(key.createdAt),
  activates_at: iso(key.activatesAt),
  revoked_at: iso(key.revokedAt),
  last_token_expires_at: iso(key.lastTokenExpiresAt),
});
