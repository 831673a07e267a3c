import type * as t from 'io-ts';
import { boundedString, refine, strict } from './primitives.js';

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
 * `POST /v1.1/account/sites`: a new Site of the account (a separate environment, a team);
 * the admin who makes it is its first member.
 */
export const CreateAccountSiteBody = strict({ name: SiteName }, {}, 'CreateAccountSiteBody');
export type CreateAccountSiteBody = t.TypeOf<typeof CreateAccountSiteBody>;
