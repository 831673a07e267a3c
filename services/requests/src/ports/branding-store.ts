import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Logo, SiteBranding } from '../domain/branding.js';

/** Sites' branding (ADR 2301). */
export interface BrandingStore {
  readonly get: (siteId: number) => TE.TaskEither<never, O.Option<SiteBranding>>;
  /** Replaces the Site's branding; `logo` null removes it, `keep` leaves the current one. */
  readonly put: (
    branding: Omit<SiteBranding, 'logoSha256'>,
    logo: Logo | null | 'keep',
  ) => TE.TaskEither<never, SiteBranding>;
  /** The logo's bytes, only while it is the Site's current one. */
  readonly logo: (siteId: number, sha256: string) => TE.TaskEither<never, O.Option<Uint8Array>>;
}
