import { BrandingBody, BrandingView } from '../branding.js';
import { EmbeddedUrlBody, EmbeddedUrlView, FrameOriginsBody, FrameOriginsView } from '../embedded.js';
import type { Operation } from './operation.js';

/** Embedded signing (issue 23, ADR 2300): the app's frame origins, the URL, and the page it opens. */
export const EMBEDDED_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/v1.1/apps/{app_id}/frame_origins',
    operationId: 'getAppFrameOrigins',
    summary: 'The origins that may frame the app’s embedded signing pages',
    tag: 'Developer apps and tokens',
    auth: 'session',
    params: { app_id: { description: 'The Developer App (a UUID).' } },
    responses: { 200: { description: 'The list.', codec: FrameOriginsView } },
    problems: ['not_found'],
  },
  {
    method: 'put',
    path: '/v1.1/apps/{app_id}/frame_origins',
    operationId: 'setAppFrameOrigins',
    summary: 'Set the origins that may frame the app’s embedded signing pages',
    description:
      'Replaces the list (at most 10 origins such as `https://app.example.com`, no paths or wildcards; empty: none). ' +
      'An embedded signing page asked for with this app’s tokens sends CSP `frame-ancestors` with exactly these ' +
      'origins, and posts its events to one of them. Tokens already issued see the change within the gateway’s ' +
      'introspection cache.',
    tag: 'Developer apps and tokens',
    auth: 'session',
    params: { app_id: { description: 'The Developer App (a UUID).' } },
    body: { codec: FrameOriginsBody },
    responses: { 200: { description: 'The new list.', codec: FrameOriginsView } },
    problems: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1.1/requests/{request_id}/signers/{signer_id}/embedded_url',
    operationId: 'createEmbeddedUrl',
    summary: 'An embedded signing URL for one signer',
    description:
      'A URL of the signer’s page to load in an iframe on `parent_origin` (one of the token’s Developer App’s ' +
      '`allowed_frame_origins`; may be left out when the app lists one). It opens once, within 5 minutes; a second ' +
      'or late opening shows a page saying so. Ask for a new one at any time. Only for a sent Request, a signer who ' +
      'has neither signed nor declined, whose turn it is and who has no `authentication`. The page posts ' +
      '`{ source: "esign", event, request_id, signer_id }` messages to `parent_origin`: `ready`, `viewed`, `signed`, ' +
      '`declined`, `error`.',
    tag: 'Requests',
    auth: 'access_token',
    params: {
      request_id: { description: 'The Request (a UUID).' },
      signer_id: { description: 'The signer’s `signer_id`, percent-encoded.' },
    },
    body: { codec: EmbeddedUrlBody, required: false },
    responses: { 200: { description: 'The URL and when it stops opening.', codec: EmbeddedUrlView } },
    problems: ['invalid_state'],
  },
  {
    method: 'get',
    path: '/sign/embedded',
    operationId: 'openEmbeddedSigning',
    summary: 'Open an embedded signing URL (in an iframe)',
    description:
      'The first opening within 5 minutes continues (303) to the signer’s page in embedded mode; the pages are ' +
      'framed only by the app’s origins and post their events to `parent_origin`.',
    tag: 'Signer pages',
    auth: 'public',
    query: { t: { description: 'The URL’s single-use token.', schema: { type: 'string' }, required: true } },
    responses: {
      303: { description: 'To the signer’s page, embedded.', location: true, contentType: 'text/html' },
    },
    problems: [],
    otherErrors: {
      404: { description: 'No such URL.', contentType: 'text/html' },
      410: { description: 'Already opened once, or older than 5 minutes.', contentType: 'text/html' },
    },
  },
];

const SITE_ID = { description: 'The Site (an integer id).', integer: true } as const;

/** Branding per Site (issue 23 part 2, ADR 2301): the API and the public logo. */
export const BRANDING_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/v1.1/sites/{site_id}/branding',
    operationId: 'getSiteBranding',
    summary: 'A Site’s branding',
    description: 'Every part is null until set: signers then see neutral pages and messages.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID },
    responses: { 200: { description: 'The branding.', codec: BrandingView } },
    problems: [],
  },
  {
    method: 'put',
    path: '/v1.1/sites/{site_id}/branding',
    operationId: 'setSiteBranding',
    summary: 'Set a Site’s branding',
    description:
      'Replaces it: a text part left out is cleared; the logo is replaced when `logo` is sent, removed with ' +
      '`remove_logo: true`, else kept. `display_name` is shown to signers instead of the Site’s name (pages, ' +
      'e-mails, SMS, the executed PDF); `accent_color` (`#rrggbb`, at least 4.5:1 against white) colours buttons and ' +
      'links; `reply_to` is the e-mails’ Reply-To; `email_footer` ends every e-mail; `logo` is a PNG (base64, at most ' +
      '100 kB and 1000 × 1000 pixels; SVG is refused) shown on the pages and in the e-mails.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID },
    body: { codec: BrandingBody },
    responses: { 200: { description: 'The new branding.', codec: BrandingView } },
    problems: [],
  },
  {
    method: 'get',
    path: '/sign/logo/{site}/{file}',
    operationId: 'siteLogo',
    summary: 'A Site’s logo (public, for pages and e-mails)',
    tag: 'Signer pages',
    auth: 'public',
    params: {
      site: { description: 'The Site (an integer id).', integer: true },
      file: { description: '`<sha256>.png` of the current logo.' },
    },
    responses: {
      200: { description: 'The PNG; cacheable for ever (its name is its hash).', contentType: 'image/png' },
    },
    problems: [],
    otherErrors: {
      404: { description: 'No such logo (or no longer the Site’s).', contentType: 'text/plain' },
    },
  },
];
