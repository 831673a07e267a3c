import * as E from 'fp-ts/lib/Either.js';
import type { SiteGrant } from '@esign/contracts';
import { notFound, type AppError } from './errors.js';

/** Who calls, as the gateway vouches: the sites they reach now, and their e-mail address when it says. */
export interface Caller {
  readonly sub: string;
  readonly sites: readonly SiteGrant[];
  readonly email?: string;
  /** The access token's id (the gateway's rate-limit key); absent in tests that do not need it. */
  readonly tokenId?: string;
  /** The token may create only test-mode Requests (issue #22); absent: false. */
  readonly testModeOnly?: boolean;
  /** The origins the token's Developer App lets frame embedded signing pages (ADR 2300). */
  readonly frameOrigins?: readonly string[];
}

export const siteIds = (caller: Caller): readonly number[] => caller.sites.map((s) => s.id);

/** The site, if the caller reaches it; another site reads exactly like a missing one. */
export const reachSite = (caller: Caller, siteId: number): E.Either<AppError, SiteGrant> => {
  const site = caller.sites.find((s) => s.id === siteId);
  return site === undefined ? E.left(notFound('site')) : E.right(site);
};

/**
 * The site to create Requests on, if the caller reaches it and may create what it asks:
 * a test-only token (issue #22) creates test-mode Requests only.
 */
export const reachSiteToCreate = (
  caller: Caller,
  siteId: number,
  testMode: boolean | undefined,
): E.Either<AppError, SiteGrant> =>
  E.isRight(reachSite(caller, siteId)) && caller.testModeOnly === true && testMode !== true
    ? E.left({ _tag: 'TestModeOnlyToken', on: 'create' })
    : reachSite(caller, siteId);
