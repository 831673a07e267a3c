import * as t from 'io-ts';
import { LocaleTag } from './i18n/locale.js';
import { Page } from './paging.js';
import { boundedString, Email, nullable, partialUpdate, refine, strict } from './primitives.js';

// Account administration by the account's admin (ADRs 1401, 3030, 3040, 3050).

/** The most Sites one account may have (ADR 3050): accounts hold a few environments, not thousands. */
export const MAX_SITES_PER_ACCOUNT = 100;

/** A Site's name: shown in lists, the header's switch and logs; unique within the account. */
export const SiteName = refine(
  boundedString(1, 200),
  (s): s is string => s.trim() !== '' && !/\p{Cc}/u.test(s),
  'must not be blank or contain control characters',
  'SiteName',
);

/**
 * An account's name: in the e-mails its users get (invitations, changes to their access)
 * and at the top of its web application's pages. Not unique: accounts never see each other.
 */
export const AccountName = refine(
  boundedString(1, 200),
  (s): s is string => s.trim() !== '' && !/\p{Cc}/u.test(s),
  'must not be blank or contain control characters',
  'AccountName',
);

/** `GET /v1.1/account`: the signed-in user's account (ADR 3080). */
export const AccountView = t.type({
  id: t.string,
  name: t.string,
  /** The spec's "account with REST API access": its users' tokens work only while it is true. */
  api_access: t.boolean,
  created_at: t.string,
  /** The addresses of its enabled admins: whom its users ask to be invited, added or enabled. */
  admins: t.array(t.string),
});
export type AccountView = t.TypeOf<typeof AccountView>;

/** `PATCH /v1.1/account`: a new name for the account (account admins; ADR 3080). */
export const UpdateAccountBody = strict({ name: AccountName }, {}, 'UpdateAccountBody');
export type UpdateAccountBody = t.TypeOf<typeof UpdateAccountBody>;

/**
 * `POST /v1.1/account/sites`: a new Site of the account (a separate environment, a team);
 * the admin who makes it is its first member.
 */
export const CreateAccountSiteBody = strict({ name: SiteName }, {}, 'CreateAccountSiteBody');
export type CreateAccountSiteBody = t.TypeOf<typeof CreateAccountSiteBody>;

/**
 * `PATCH /v1.1/account/sites/:id`: a new name for the Site (ADR 3070), and/or the language
 * its signers read when their entry names none (ADR 2320; null clears it). An empty body
 * is refused.
 */
export const UpdateAccountSiteBody = partialUpdate(
  { name: SiteName, default_locale: nullable(LocaleTag) },
  'UpdateAccountSiteBody',
);
export type UpdateAccountSiteBody = t.TypeOf<typeof UpdateAccountSiteBody>;

/** A member of a Site, as an account admin sees it. */
export const SiteMemberView = t.type({ user_id: t.string, email: t.string, added_at: t.string });
export type SiteMemberView = t.TypeOf<typeof SiteMemberView>;

/** `GET /v1.1/account/sites`: the account's Sites and who is on each (account admins only). */
export const AccountSiteView = t.type({
  id: t.number,
  name: t.string,
  created_at: t.string,
  default_locale: nullable(t.string),
  members: t.array(SiteMemberView),
});
export type AccountSiteView = t.TypeOf<typeof AccountSiteView>;
export const AccountSiteList = Page(AccountSiteView);
export type AccountSiteList = t.TypeOf<typeof AccountSiteList>;

/** `GET /v1.1/account/users`: the account's users (account admins only). */
export const AccountUserView = t.type({
  id: t.string,
  email: t.string,
  disabled_at: nullable(t.string),
  /** Administers the account: its users, invitations and Sites (ADR 3060). */
  admin: t.boolean,
  site_ids: t.array(t.number),
});
export type AccountUserView = t.TypeOf<typeof AccountUserView>;
export const AccountUserList = Page(AccountUserView);
export type AccountUserList = t.TypeOf<typeof AccountUserList>;

/**
 * `PATCH /v1.1/account/users/:id`: disable a user of the account (a colleague who left:
 * their sessions end, their tokens stop) or enable them again (ADR 3040); make them an
 * admin of the account or no longer one (ADR 3060). An empty body is refused.
 */
export const UpdateAccountUserBody = partialUpdate(
  { disabled: t.boolean, admin: t.boolean },
  'UpdateAccountUserBody',
);
export type UpdateAccountUserBody = t.TypeOf<typeof UpdateAccountUserBody>;

/** `POST /v1.1/account/sites/:id/members`: add a user of the account to one Site, by e-mail address. */
export const AddSiteMemberBody = strict({ email: Email }, {}, 'AddSiteMemberBody');
export type AddSiteMemberBody = t.TypeOf<typeof AddSiteMemberBody>;
