import * as t from 'io-ts';
import { DisplayName } from './auth-api.js';
import { boundedString, Email, nullable, refine, strict } from './primitives.js';

/**
 * Branding per Site (issue 23 part 2, ADR 2301): what signers see of the sender on the
 * signing pages, in e-mails and SMS, and on the executed PDF's audit page. Every part is
 * optional; without them the pages and messages stay neutral.
 */

/** The most a logo may weigh (decoded): small enough for every e-mail and page. */
export const MAX_LOGO_BYTES = 100_000;
/** The largest logo, in pixels either way. */
export const MAX_LOGO_SIDE = 1000;

const HEX = /^#[0-9a-fA-F]{6}$/;

const channel = (c: number): number => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2 contrast ratio of a `#rrggbb` colour against white. */
export const contrastWithWhite = (hex: string): number => {
  const n = Number.parseInt(hex.slice(1), 16);
  const l = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return 1.05 / (l + 0.05);
};

/**
 * The accent: buttons (white text on it) and links (it on white) use it, so it must reach
 * 4.5:1 against white, the WCAG AA contrast for text.
 */
export const AccentColor = refine(
  t.string,
  (s): s is string => HEX.test(s) && contrastWithWhite(s) >= 4.5,
  (s) =>
    HEX.test(s)
      ? `contrast with white is ${contrastWithWhite(s).toFixed(2)}:1; it must be at least 4.5:1 (pick a darker colour)`
      : 'must be a colour as #rrggbb',
  'AccentColor',
  { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
);

/** A logo as uploaded: a PNG, base64. SVG is refused (ADR 2301). */
export const LogoUpload = strict(
  {
    content_type: refine(
      t.string,
      (s): s is 'image/png' => s === 'image/png',
      (s) =>
        s === 'image/svg+xml'
          ? 'SVG logos are refused (they can carry scripts and cannot be drawn in the PDF): upload a PNG'
          : 'must be image/png',
      'LogoContentType',
      { type: 'string', enum: ['image/png'] },
    ),
    data_base64: boundedString(1, Math.ceil((MAX_LOGO_BYTES * 4) / 3) + 4, 'LogoBase64'),
  },
  {},
  'LogoUpload',
);
export type LogoUpload = t.TypeOf<typeof LogoUpload>;

/**
 * `PUT /v1.1/sites/:id/branding`: replaces the Site's branding; a text part left out is
 * cleared. The logo is a file: it is replaced when `logo` is sent, removed with
 * `remove_logo: true`, and otherwise kept.
 */
export const BrandingBody = strict(
  {},
  {
    display_name: DisplayName,
    accent_color: AccentColor,
    reply_to: Email,
    email_footer: boundedString(1, 500, 'EmailFooter'),
    logo: LogoUpload,
    remove_logo: t.boolean,
  },
  'BrandingBody',
);
export type BrandingBody = t.TypeOf<typeof BrandingBody>;

export const BrandingView = t.type({
  site_id: t.number,
  /** Shown instead of the Site's name to signers; null: the Site's name. */
  display_name: nullable(t.string),
  accent_color: nullable(t.string),
  /** Where signers' replies to e-mails go; null: the platform's sender. */
  reply_to: nullable(t.string),
  email_footer: nullable(t.string),
  logo: nullable(t.type({ content_type: t.string, sha256: t.string, bytes: t.number, url: t.string })),
  updated_at: nullable(t.string),
});
export type BrandingView = t.TypeOf<typeof BrandingView>;

/** What the notifier needs of a Site's branding to compose a message (display name: `site.name`). */
export const EventBranding = t.type({
  accent_color: nullable(t.string),
  reply_to: nullable(t.string),
  email_footer: nullable(t.string),
  /** The logo's path on the public address (`/sign/logo/…`); the notifier resolves it against the link it sends. */
  logo_path: nullable(t.string),
});
export type EventBranding = t.TypeOf<typeof EventBranding>;
