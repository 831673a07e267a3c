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
      drawn_signature: t.string,
      reason: t.string,
    }),
  ],
  'SigningForm',
);

const page = (description: string): SuccessAnswer => ({ description, contentType: 'text/html' });

/** Dead links show a page, never the contract. */
const DEAD_LINKS: Readonly<Record<number, SuccessAnswer>> = {
  400: page('An incomplete link or an unreadable submission.'),
  403: page('A tampered link, or a form posted from another site.'),
  404: page('An unknown Request or signer.'),
  409: page('The Request is not sent yet.'),
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
    description: 'What the signer opens: the contracts, their fields, the consent and the signature.',
    query: LINK,
    responses: { 200: page('The signing page.') },
  }),
  signing({
    method: 'post',
    path: '/sign',
    operationId: 'submitSignature',
    summary: 'Sign (the page’s form)',
    body: { codec: SigningForm, contentType: 'application/x-www-form-urlencoded' },
    responses: submitted,
    otherErrors: {
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
    },
    responses: { 200: { description: 'The PDF, pre-filled.', contentType: 'application/pdf' } },
  }),
];
