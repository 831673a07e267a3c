import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { BrandingBody, BrandingView } from '@esign/contracts';
import { checkLogo, logoPath, type Logo, type SiteBranding } from '../domain/branding.js';
import type { BrandingStore } from '../ports/branding-store.js';
import { reachSite, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import type { AppError } from './errors.js';

/** The ports of the branding slice (ADR 2301). */
export type BrandingDeps = Pick<Deps, 'clock' | 'publicBaseUrl'> & { readonly branding: BrandingStore };

const base = (publicBaseUrl: string) => (publicBaseUrl.endsWith('/') ? publicBaseUrl : `${publicBaseUrl}/`);

const brandingView = (
  deps: Pick<Deps, 'publicBaseUrl'>,
  siteId: number,
  b: SiteBranding | undefined,
  logoBytes: number | null,
): BrandingView => ({
  site_id: siteId,
  display_name: b?.displayName ?? null,
  accent_color: b?.accentColor ?? null,
  reply_to: b?.replyTo ?? null,
  email_footer: b?.emailFooter ?? null,
  logo:
    b?.logoSha256 == null
      ? null
      : {
          content_type: 'image/png',
          sha256: b.logoSha256,
          bytes: logoBytes ?? 0,
          url: new URL(logoPath(siteId, b.logoSha256), base(deps.publicBaseUrl)).toString(),
        },
  updated_at: b?.updatedAt ?? null,
});

/** A Site's branding; a Site without any answers every part null. */
export const getBranding =
  (deps: BrandingDeps) =>
  (caller: Caller, siteId: number): TE.TaskEither<AppError, BrandingView> =>
  async () => {
    const site = reachSite(caller, siteId);
    if (E.isLeft(site)) return site;
    const branding = await deps.branding.get(siteId)();
    const logo =
      branding?.logoSha256 == null ? undefined : await deps.branding.logo(siteId, branding.logoSha256)();
    return E.right(brandingView(deps, siteId, branding, logo?.length ?? null));
  };

/**
 * Replaces a Site's branding. The logo arrives decoded (the HTTP adapter reads base64 and
 * hashes it); it must be a PNG within the limits, else nothing is written.
 */
export const putBranding =
  (deps: BrandingDeps) =>
  (
    caller: Caller,
    siteId: number,
    body: BrandingBody,
    logo: Logo | undefined,
  ): TE.TaskEither<AppError, BrandingView> =>
  async () => {
    const site = reachSite(caller, siteId);
    if (E.isLeft(site)) return site;
    if (logo !== undefined && body.remove_logo === true)
      return E.left({
        _tag: 'InvalidRequest',
        errors: [{ path: 'remove_logo', message: 'cannot be true with a new logo' }],
      });
    if (logo !== undefined) {
      const checked = checkLogo(logo.png);
      if (E.isLeft(checked))
        return E.left({
          _tag: 'InvalidRequest',
          errors: [{ path: 'logo.data_base64', message: checked.left }],
        });
    }
    const saved = await deps.branding.put(
      {
        siteId,
        displayName: body.display_name?.trim() ?? null,
        accentColor: body.accent_color?.toLowerCase() ?? null,
        replyTo: body.reply_to ?? null,
        emailFooter: body.email_footer?.trim() ?? null,
        updatedAt: isoNow(deps.clock),
      },
      logo ?? (body.remove_logo === true ? null : 'keep'),
    )();
    const bytes =
      logo?.png.length ??
      (saved.logoSha256 === null
        ? null
        : ((await deps.branding.logo(siteId, saved.logoSha256)())?.length ?? null));
    return E.right(brandingView(deps, siteId, saved, bytes));
  };

/** The bytes of a Site's current logo, for its public URL. */
export const siteLogo =
  (deps: BrandingDeps) =>
  (siteId: number, sha256: string): Promise<Uint8Array | undefined> =>
    /^[0-9a-f]{64}$/.test(sha256) ? deps.branding.logo(siteId, sha256)() : Promise.resolve(undefined);

export const brandingUseCases = (deps: BrandingDeps) => ({
  getBranding: getBranding(deps),
  putBranding: putBranding(deps),
  siteLogo: siteLogo(deps),
});
export type BrandingUseCases = ReturnType<typeof brandingUseCases>;
