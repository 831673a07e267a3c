import * as t from 'io-ts';
import type { Operation, QueryParameter, SuccessAnswer } from './operation.js';

/**
 * The signer pages behind each Execution URL. They are HTML for people with a browser,
 * not JSON for clients, but the gateway routes them publicly, so the document names them:
 * a client needs only to redirect a signer to `request_url`.
 */
const LINK: Readonly<Record<string, QueryParameter>> = {
  r: { description: 'The Request.', schema: { type: 'string' }, required: true },
  s: { description: 'The signer’s reference.', schema: { type: 'string' }, required: true },
  signature: { description: 'The Execution URL’s signature.', schema: { type: 'string' }, required: true },
};

/** The signing form as the page posts it; `f<N>` carries the value of field N. */
export const SigningForm = t.intersection(
  [
    t.type({
      r: t.string,
      s: t.string,
      signature: t.string,
      form_token: t.string,
      document_sha256: t.string,
    }),
    t.partial({
      typed_name: t.string,
      consent: t.literal('yes'),
      auth: t.string,
      drawn_signature: t.string,
      reason: t.string,
      /** `POST /sign/reassign` (ADR 3560): whom the signer asks to sign in their place. */
      email: t.string,
    }),
  ],
  'SigningForm',
);

/** The code-entry page's forms (signer authentication, ADR 2001). */
export const SignerCodeForm = t.intersection(
  [
    t.type({ r: t.string, s: t.string, signature: t.string, form_token: t.string }),
    t.partial({ code: t.string }),
  ],
  'SignerCodeForm',
);

const page = (description: string): SuccessAnswer => ({ description, contentType: 'text/html' });

/** Dead links show a page, never the contract. */
const DEAD_LINKS: Readonly<Record<number, SuccessAnswer>> = {
  400: page('An incomplete link or an unreadable submission.'),
  403: page('A tampered link, or a form posted from another site.'),
  404: page('An unknown Request or signer.'),
  409: page('The Request is not sent yet, or (signing in order) it is not this signer’s turn yet.'),
  410: page('The Request was cancelled, expired, declined or completed.'),
};

const signing = (operation: Omit<Operation, 'auth' | 'tag' | 'problems'>): Operation => ({
  ...operation,
  auth: 'public',
  tag: 'Signer pages',
  problems: [],
  otherErrors: { ...DEAD_LINKS, ...operation.otherErrors },
});

const submitted: Readonly<Record<number, SuccessAnswer>> = {
  303: {
    description: 'Done: to `redirect_url` (with `request_id`, `signer_id`, `status`) or a thank-you page.',
    location: true,
    // koa's redirect says where it goes in a line of HTML too.
    contentType: 'text/html',
  },
};

export const SIGNING_OPERATIONS: readonly Operation[] = [
  signing({
    method: 'get',
    path: '/sign',
    operationId: 'openSigningPage',
    summary: 'The signing page (Execution URL)',
    description:
      'What the signer opens: the contracts, their fields, the consent and the signature. A signer with `authentication` first gets the code-entry page (a one-time code is sent when none is live), and the signing page with `auth`, the pass a right code earns. Before a signer’s turn (signing in order): 409, “not your turn yet”.',
    query: {
      ...LINK,
      auth: {
        description: 'The pass `POST /sign/verify` gave (signer authentication).',
        schema: { type: 'string' },
      },
    },
    responses: { 200: page('The signing page, or the code-entry page.') },
  }),
  signing({
    method: 'post',
    path: '/sign',
    operationId: 'submitSignature',
    summary: 'Sign (the page’s form)',
    description:
      'URL-encoded, or `multipart/form-data` when the page has attachment fields (ADR 3920): each file under ' +
      'its field input’s name (`f0`, `f1`…), a PDF, PNG or JPEG of at most 10 MiB, at most 25 MiB of files in ' +
      'one submission. A file is kept as soon as a valid form brings it, even when the form is shown again.',
    body: { codec: SigningForm, contentType: 'application/x-www-form-urlencoded', withFiles: true },
    responses: submitted,
    otherErrors: {
      413: page('More files than one submission carries: a page saying to send them one at a time.'),
      415: page('Not a form submission.'),
      422: page('A field is missing or invalid: the form again.'),
    },
  }),
  signing({
    method: 'post',
    path: '/sign/decline',
    operationId: 'declineSigning',
    summary: 'Decline (the page’s form)',
    body: { codec: SigningForm, contentType: 'application/x-www-form-urlencoded' },
    responses: submitted,
    otherErrors: { 415: page('Not a form submission.'), 422: page('The reason is missing: the form again.') },
  }),
  signing({
    method: 'post',
    path: '/sign/reassign',
    operationId: 'reassignSigning',
    summary: 'Ask someone else to sign in the signer’s place (the page’s form)',
    description:
      'Offered on the signing page only when the Request has `allow_reassign` (ADR 3560), it is the signer’s ' +
      'turn, they were sent their link by e-mail or SMS, and their check before signing is none or a code by ' +
      'e-mail. `email` is whom they ask: that person takes their place as a replacement does (ADR 3550), is ' +
      'e-mailed their own link, and the signer’s link stops opening. The history’s `request.signer_updated` ' +
      'names the signer in `corrected_by`.',
    body: { codec: SigningForm, contentType: 'application/x-www-form-urlencoded' },
    responses: { 200: page('Done: a page saying whom the signer asked; their link no longer opens.') },
    otherErrors: {
      403: page('The Request does not let this signer ask someone else, or a form from another site.'),
      415: page('Not a form submission.'),
      422: page(
        'The address is missing, not an address, the signer’s own, or another signer’s: the form again.',
      ),
    },
  }),
  signing({
    method: 'post',
    path: '/sign/verify',
    operationId: 'verifySignerCode',
    summary: 'Check a signer’s code (the code-entry page’s form)',
    description:
      'An access code or a one-time code. Right: to the signing page with the pass. Five wrong codes lock the link for 15 minutes.',
    body: { codec: SignerCodeForm, contentType: 'application/x-www-form-urlencoded' },
    responses: {
      303: {
        description: 'The right code: to `GET /sign` with `auth`.',
        location: true,
        contentType: 'text/html',
      },
    },
    otherErrors: {
      415: page('Not a form submission.'),
      422: page('A wrong or expired code: the code page again, with the tries left.'),
      429: page('Locked after too many wrong codes: the code page says until when.'),
    },
  }),
  signing({
    method: 'post',
    path: '/sign/code',
    operationId: 'resendSignerCode',
    summary: 'Send a new one-time code',
    description: 'E-mailed or texted as the signer’s method says; texts are capped per signer per hour.',
    body: { codec: SignerCodeForm, contentType: 'application/x-www-form-urlencoded' },
    responses: {
      200: page('The code page: a new code was sent, or why not.'),
      303: {
        description: 'Nothing to check on this link: to `GET /sign`.',
        location: true,
        contentType: 'text/html',
      },
    },
    otherErrors: { 415: page('Not a form submission.') },
  }),
  signing({
    method: 'get',
    path: '/sign/copy',
    operationId: 'signerExecutedCopy',
    summary: 'A signer’s copy of the executed PDF (the completion e-mail’s link)',
    description: 'A signed link that works for 30 days after completion (ADR 2002).',
    query: {
      r: LINK.r!,
      s: LINK.s!,
      e: {
        description: 'When the link stops working (unix seconds).',
        schema: { type: 'string' },
        required: true,
      },
      signature: { description: 'The link’s signature.', schema: { type: 'string' }, required: true },
    },
    responses: { 200: { description: 'The executed document.', contentType: 'application/pdf' } },
    otherErrors: { 409: page('The Request is not completed.'), 410: page('The link has expired.') },
  }),
  signing({
    method: 'get',
    path: '/sign/done',
    operationId: 'signingDone',
    summary: 'After signing or declining',
    query: LINK,
    responses: {
      200: page('Signed or declined.'),
      303: {
        description: 'Not signed yet: back to the signing page.',
        location: true,
        contentType: 'text/html',
      },
    },
  }),
  signing({
    method: 'get',
    path: '/sign/document',
    operationId: 'signingDocument',
    summary: 'A PDF contract of the Request, for the signer',
    query: {
      ...LINK,
      contract: {
        description: 'The contract template’s id.',
        schema: { type: 'integer', minimum: 1 },
        required: true,
      },
      auth: {
        description: 'The pass a right code earned (signer authentication).',
        schema: { type: 'string' },
      },
    },
    responses: { 200: { description: 'The PDF, pre-filled.', contentType: 'application/pdf' } },
    otherErrors: { 401: page('The signer has a code to enter first.') },
  }),
];
