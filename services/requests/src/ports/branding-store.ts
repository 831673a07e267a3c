import type * as T from 'fp-ts/lib/Task.js';
import type { Logo, SiteBranding } from '../domain/branding.js';

/** Sites' branding (ADR 2301). */
export interface BrandingStore {
  readonly get: (siteId: number) => T.Task<SiteBranding | undefined>;
  /** Replaces the Site's branding; `logo` null removes it, `keep` leaves the current one. */
  readonly put: (
    branding: Omit<SiteBranding, 'logoSha256'>,
    logo: Logo | null | 'keep',
  ) => T.Task<SiteBranding>;
  /** The logo's bytes, only while it is the Site's current one. */
  readonly logo: (siteId: number, sha256: string) => T.Task<Uint8Array | undefined>;
}
