import { logoPath } from '../../../domain/branding.js';
import type { SignatureRequest } from '../../../domain/request-model.js';
import { safe, trusted, type Html } from './html.js';

/** What a signer page shows of the Site's branding (ADR 2301); absent: the neutral page. */
export interface PageBrand {
  /** The display name (or the Site's name): the logo's text alternative. */
  readonly name: string;
  /** Validated `#rrggbb` with at least 4.5:1 against white. */
  readonly accentColor: string | null;
  readonly logoSrc: string | null;
}

export const pageBrandOf = (basePath: string, request: SignatureRequest): PageBrand | undefined => {
  const b = request.branding;
  if (b === undefined) return undefined;
  return {
    name: request.siteName,
    accentColor: b.accentColor !== null && /^#[0-9a-f]{6}$/i.test(b.accentColor) ? b.accentColor : null,
    logoSrc: b.logoSha256 === null ? null : `${basePath}${logoPath(request.siteId, b.logoSha256)}`,
  };
};

/** The accent as the page's CSS variable (the value is a checked hex colour). */
export const brandStyle = (brand: PageBrand | undefined): Html =>
  brand?.accentColor == null ? trusted('') : trusted(`:root { --accent: ${brand.accentColor}; }`);

/** The logo at the top of the page, named by the sender's name. */
export const brandLogo = (brand: PageBrand | undefined): Html =>
  brand?.logoSrc == null
    ? trusted('')
    : safe`<img class="logo" src="${brand.logoSrc}" alt="${brand.name}" height="48">`;
