// A Site's signers on their own (ADR 3200): the records every create upserts.
import { PutSiteSignerBody, SiteSignerList, SiteSignerView } from '../site-signers.js';
import { PAGE_QUERY, SITE_ID, type Operation } from './operation.js';

const SIGNER_ID = { description: 'The signer’s `signer_id`, percent-encoded.' } as const;

export const SITE_SIGNER_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/v1.1/sites/{site_id}/signers',
    operationId: 'listSiteSigners',
    summary: 'List a Site’s signers',
    description:
      'Every signer the Site knows (each one a create named, or `PUT` made), by `signer_id`, with the contact ' +
      'details a new Request and every draft naming them use.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID },
    query: {
      ...PAGE_QUERY,
      q: {
        description:
          'Only the signers whose `signer_id`, e-mail address or mobile number contains this text, in any ' +
          'case (1 to 255 characters; `%` and `_` are plain characters). It reads every signer of the Site.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    },
    responses: { 200: { description: 'One page of the Site’s signers.', codec: SiteSignerList } },
    problems: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/v1.1/sites/{site_id}/signers/{signer_id}',
    operationId: 'getSiteSigner',
    summary: 'Read one of a Site’s signers',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID, signer_id: SIGNER_ID },
    responses: { 200: { description: 'The signer.', codec: SiteSignerView } },
    problems: [],
  },
  {
    method: 'put',
    path: '/v1.1/sites/{site_id}/signers/{signer_id}',
    operationId: 'putSiteSigner',
    summary: 'Create or update one of a Site’s signers',
    description:
      'Upserts the signer exactly as a create’s `signers` entry does: an `email` or `mobile_number` given in ' +
      '`signer` wins, then what the `signer_id` itself is (an e-mail address, or 10 digits read as a US mobile ' +
      'number), then what the Site already had; a detail left out is kept, and one given as `null` is removed (a ' +
      'number that reaches someone else, say; not the one the `signer_id` itself is). Every draft naming the ' +
      'signer shows the new details at once and is sent to them; a Request already sent keeps the details it was ' +
      'sent with (correct those with `PATCH /v1.1/requests/{request_id}/signers/{signer_id}`). Sending the same ' +
      'details again changes nothing. 201 when the signer is new, 200 otherwise.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID, signer_id: SIGNER_ID },
    body: { codec: PutSiteSignerBody, required: false },
    responses: {
      200: { description: 'The signer, updated or unchanged.', codec: SiteSignerView },
      201: { description: 'The signer, new.', codec: SiteSignerView, location: true },
    },
    problems: [],
  },
  {
    method: 'delete',
    path: '/v1.1/sites/{site_id}/signers/{signer_id}',
    operationId: 'deleteSiteSigner',
    summary: 'Delete one of a Site’s signers',
    description:
      'Forgets a signer no Request of the Site names: one made by mistake, or whose Requests are all gone. A ' +
      'signer a Request names is kept with it (409 `signer_in_use`), even one named by a create running at ' +
      'the same moment. A later create or `PUT` naming the same `signer_id` makes a new signer.',
    tag: 'Requests',
    auth: 'access_token',
    params: { site_id: SITE_ID, signer_id: SIGNER_ID },
    responses: { 204: { description: 'Deleted.' } },
    problems: ['signer_in_use'],
  },
];
