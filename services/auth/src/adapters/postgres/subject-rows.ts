import * as t from 'io-ts';
import { SiteGrant } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import type { IntrospectionSubject } from '../../domain/tokens.js';
import { NullableTimestamp, Timestamp } from './rows.js';

/**
 * The columns of an introspection subject that a session and an access token both answer
 * with; a token adds its own (site limit, test mode, frame origins).
 */
export const subjectColumns = {
  id: t.string,
  user_id: t.string,
  user_email: t.string,
  expires_at: Timestamp,
  revoked_at: NullableTimestamp,
  user_disabled: t.boolean,
  api_access: t.boolean,
  key_revoked: t.boolean,
  sites: t.array(SiteGrant),
};
type SubjectColumns = t.TypeOf<t.TypeC<typeof subjectColumns>>;

/** `sites`: the Sites the user in column `alias.user_id` is a member of now, as SiteGrants. */
export const memberSitesOf = (alias: string) => sql.fragment`
  COALESCE(
    (SELECT json_agg(json_build_object('id', ms.id, 'name', ms.name, 'default_locale', ms.default_locale) ORDER BY ms.id)
     FROM site_members mm JOIN sites ms ON ms.id = mm.site_id
     WHERE mm.user_id = ${sql.identifier([alias, 'user_id'])}),
    '[]'::json) AS sites`;

/** The subject of a row of `subjectColumns`; `appUnusable` is the token's app's (a session has none). */
export const toSubject = (row: SubjectColumns, appUnusable: boolean): IntrospectionSubject => ({
  tokenId: row.id,
  userId: row.user_id,
  email: row.user_email,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  userDisabled: row.user_disabled,
  appUnusable,
  apiAccess: row.api_access,
  keyRevoked: row.key_revoked,
  sites: row.sites,
});
