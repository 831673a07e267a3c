import type { SiteGrant } from '@esign/contracts';
import type { SiteRef } from './route-table.js';

/**
 * A token reaches a site only when auth lists it among the token's sites now. An id
 * that names no site, a site that does not exist and another account's site are all
 * the same answer, so a caller cannot tell them apart.
 */
export const reachesSite = (sites: readonly SiteGrant[], site: SiteRef): boolean =>
  site.id !== undefined && sites.some((grant) => grant.id === site.id);
