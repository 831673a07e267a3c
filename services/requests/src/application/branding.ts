import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
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

/** The size of the Site's current logo, when it has one. */
const logoBytes = (
  deps: BrandingDeps,
  siteId: number,
  branding: O.Option<SiteBranding>,
): TE.TaskEither<never, number | null> => {
  const sha = O.toNullable(branding)?.logoSha256 ?? null;
  return sha === null
    ? TE.right(null)
    : pipe(
        deps.branding.logo(siteId, sha),
        TE.map(
          O.match(
            () => null,
            (png) => png.length,
          ),
        ),
      );
};

/** A Site's branding; a Site without any answers every part null. */
export const getBranding =
  (deps: BrandingDeps) =>
  (caller: Caller, siteId: number): TE.TaskEither<AppError, BrandingView> =>
    pipe(
      TE.fromEither(reachSite(caller, siteId)),
      TE.chainW(() => deps.branding.get(siteId)),
      TE.chainW((branding) =>
        pipe(
          logoBytes(deps, siteId, branding),
          TE.map((bytes) => brandingView(deps, siteId, O.toUndefined(branding), bytes)),
        ),
      ),
    );

const checkedLogo = (body: BrandingBody, logo: Logo | undefined): E.Either<AppError, void> => {
  if (logo !== undefined && body.remove_logo === true)
    return E.left({
      _tag: 'InvalidRequest',
      errors: [{ path: 'remove_logo', message: 'cannot be true with a new logo' }],
    });
  if (logo === undefined) return E.right(undefined);
  return pipe(
    checkLogo(logo.png),
    E.bimap(
      (message): AppError => ({ _tag: 'InvalidRequest', errors: [{ path: 'logo.data_base64', message }] }),
      () => undefined,
    ),
  );
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
    pipe(
      TE.fromEither(reachSite(caller, siteId)),
      TE.chainEitherKW(() => checkedLogo(body, logo)),
      TE.chainW(() =>
        deps.branding.put(
          {
            siteId,
            displayName: body.display_name?.trim() ?? null,
            accentColor: body.accent_color?.toLowerCase() ?? null,
            replyTo: body.reply_to ?? null,
            emailFooter: body.email_footer?.trim() ?? null,
            updatedAt: isoNow(deps.clock),
          },
          logo ?? (body.remove_logo === true ? null : 'keep'),
        ),
      ),
      TE.chainW((saved) =>
        pipe(
          logo === undefined ? logoBytes(deps, siteId, O.some(saved)) : TE.right(logo.png.length),
          TE.map((bytes) => brandingView(deps, siteId, saved, bytes)),
        ),
      ),
    );

/** The bytes of a Site's current logo, for its public URL. */
export const siteLogo =
  (deps: BrandingDeps) =>
  (siteId: number, sha256: string): TE.TaskEither<never, O.Option<Uint8Array>> =>
    /^[0-9a-f]{64}$/.test(sha256) ? deps.branding.logo(siteId, sha256) : TE.right(O.none);

export const brandingUseCases = (deps: BrandingDeps) => ({
  getBranding: getBranding(deps),
  putBranding: putBranding(deps),
  siteLogo: siteLogo(deps),
});
export type BrandingUseCases = ReturnType<typeof brandingUseCases>;
