// Contract templates: created, listed, read and published; a draft's content replaced or the draft deleted;
// a published one archived or unarchived; any one copied into a new draft; a PDF one's file downloaded;
// its history read; what signers entered in its fields.
import { TemplateFieldValuesList } from '../field-values.js';
import { HISTORY_ORDERS, RequestEventList } from '../request-history.js';
import {
  ContractList,
  ContractView,
  CopyContractBody,
  CreateContractBody,
  PatchContractBody,
} from '../templates.js';
import { PAGE_QUERY, SITE_ID, stateQuery, type Operation } from './operation.js';

const CONTRACT_ID = { description: 'The contract template (an integer id).', integer: true } as const;

/** `POST …/archive` and `…/unarchive` (ADR 3250): only a published template; a draft is deleted instead. */
const archiveOperation = (
  action: 'archive' | 'unarchive',
  summary: string,
  description: string,
): Operation => ({
  method: 'post',
  path: `/v1.1/contracts/{contract_id}/${action}`,
  operationId: `${action}Contract`,
  summary,
  description: `${description} A draft template is a 409 \`template_draft\`: a draft is deleted, not archived.`,
  tag: 'Contract templates',
  auth: 'access_token',
  idempotent: true,
  params: { contract_id: CONTRACT_ID },
  responses: { 200: { description: 'The template, as it is now.', codec: ContractView } },
  problems: ['template_draft'],
});

export const CONTRACT_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1.1/sites/{site_id}/contracts',
    operationId: 'createContract',
    summary: 'Create a contract template',
    description:
      'An HTML template with `{{tokens}}` and declared fields, or a PDF whose form fields are read from the file. ' +
      'It is a draft until published.',
    tag: 'Contract templates',
    auth: 'access_token',
    idempotent: true,
    params: { site_id: SITE_ID },
    body: { codec: CreateContractBody },
    responses: { 201: { description: 'The created template.', codec: ContractView, location: true } },
    problems: [],
  },
  {
    method: 'get',
    path: '/v1.1/sites/{site_id}/contracts',
    operationId: 'listContracts',
    summary: 'List a Site’s contract templates',
    tag: 'Contract templates',
    auth: 'access_token',
    params: { site_id: SITE_ID },
    query: {
      ...PAGE_QUERY,
      state: stateQuery(['draft', 'published']),
      archived: {
        description: '`true`: only archived templates; `false`: only those not archived; absent: both.',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
      q: {
        description:
          'Only the templates whose name contains this text, in any case (spaces around it dropped, then 1 to ' +
          '255 characters; `%` and `_` are plain characters). Combines with the other filters.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    },
    responses: {
      200: { description: 'One page of templates (without their documents).', codec: ContractList },
    },
    problems: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/v1.1/contracts/{contract_id}',
    operationId: 'getContract',
    summary: 'Get a contract template',
    tag: 'Contract templates',
    auth: 'access_token',
    params: { contract_id: CONTRACT_ID },
    responses: { 200: { description: 'The template.', codec: ContractView } },
    problems: [],
  },
  {
    method: 'get',
    path: '/v1.1/contracts/{contract_id}/document',
    operationId: 'downloadContractDocument',
    summary: 'Download a PDF template’s file',
    description:
      'The PDF as it was uploaded (its SHA-256 is the template’s `document.sha256`, also the `ETag`), whatever ' +
      'the template’s state. An HTML template has no file, its text is the view’s `html`: a 409 `template_is_html`.',
    tag: 'Contract templates',
    auth: 'access_token',
    params: { contract_id: CONTRACT_ID },
    responses: {
      200: { description: 'The template’s PDF file.', contentType: 'application/pdf' },
      304: { description: 'Not modified: the `If-None-Match` named this file’s `ETag`.' },
    },
    problems: ['template_is_html'],
  },
  {
    method: 'get',
    path: '/v1.1/contracts/{contract_id}/events',
    operationId: 'listContractEvents',
    summary: 'Read a contract template’s history',
    description:
      'The template’s own events (`contract.created`, `contract.updated`, `contract.published`, ' +
      '`contract.archived`, `contract.unarchived`), oldest first (`order=desc`: newest first), each exactly as ' +
      'its webhook delivery carries it and as the Site’s feed lists it with `type`. Kept from when the Site’s ' +
      'feed began to hold template events; a template copied from another lists its own events from its ' +
      '`contract.created`. A deleted template is not found, as by `GET /v1.1/contracts/{contract_id}`: its ' +
      '`contract.deleted` is in the Site’s feed.',
    tag: 'Contract templates',
    auth: 'access_token',
    params: { contract_id: CONTRACT_ID },
    query: {
      ...PAGE_QUERY,
      order: {
        description: '`asc`: oldest first; `desc`: newest first, so the first page holds the latest events.',
        schema: { type: 'string', enum: [...HISTORY_ORDERS], default: 'asc' },
      },
      type: {
        description:
          'Only entries of these types, comma-separated or repeated; `total_count` then counts those alone.',
        schema: { type: 'string', example: 'contract.published,contract.archived' },
      },
    },
    responses: {
      200: {
        description: 'One page of the template’s events, in the order asked for.',
        codec: RequestEventList,
      },
    },
    problems: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/v1.1/contracts/{contract_id}/field_values',
    operationId: 'listContractFieldValues',
    summary: 'Read what signers entered in a contract template’s fields, across its Requests',
    description:
      'The Requests made with the template that were sent (whatever became of them since; never a draft), ' +
      'newest first, each with its `title`, `state`, `sent_at` and `completed_at`, and the template’s fields in ' +
      'its order, each exactly as `GET /v1.1/requests/{request_id}/field_values` answers it: the value the ' +
      'executed document shows, its signer and when they signed. A page is read at once, whatever its size, ' +
      'so a client collects every signer’s answers to one form page by page. A deleted template is not found.',
    tag: 'Contract templates',
    auth: 'access_token',
    params: { contract_id: CONTRACT_ID },
    query: {
      ...PAGE_QUERY,
      state: stateQuery(['sent', 'completed', 'declined', 'expired', 'cancelled']),
    },
    responses: {
      200: {
        description: 'One page of the template’s sent Requests with their values.',
        codec: TemplateFieldValuesList,
      },
    },
    problems: ['invalid_query'],
  },
  {
    method: 'post',
    path: '/v1.1/contracts/{contract_id}/publish',
    operationId: 'publishContract',
    summary: 'Publish a contract template',
    description: 'Requests can use only published templates; a published template never changes. Idempotent.',
    tag: 'Contract templates',
    auth: 'access_token',
    idempotent: true,
    params: { contract_id: CONTRACT_ID },
    responses: { 200: { description: 'The published template.', codec: ContractView } },
    problems: [],
  },
  archiveOperation(
    'archive',
    'Archive a published contract template',
    'New Requests (and bulk sends) can no longer use it: naming it is a 422 at `contracts[i]`. Requests already ' +
      'made with it are unaffected, and it stays readable; `archived=false` lists leave it out. Idempotent.',
  ),
  archiveOperation(
    'unarchive',
    'Unarchive a contract template',
    'An archived template can be used by new Requests again. Idempotent.',
  ),
  {
    method: 'post',
    path: '/v1.1/contracts/{contract_id}/copy',
    operationId: 'copyContract',
    summary: 'Copy a contract template into a new draft',
    description:
      'A new draft template with the template’s content (its HTML and fields, or the same PDF), whatever its ' +
      'state: how a published template, which never changes, is corrected (copy, replace the draft, publish it, ' +
      'archive the old one). The copy is in the same Site, or in `site_id`, another Site the credential reaches ' +
      '(a 422 at `site_id` otherwise): how a template made in a test Site goes to the production one. `name` ' +
      'defaults to the source’s with “ (copy)” in the same Site, and to the source’s as it is in another.',
    tag: 'Contract templates',
    auth: 'access_token',
    idempotent: true,
    params: { contract_id: CONTRACT_ID },
    body: { codec: CopyContractBody, required: false },
    responses: { 201: { description: 'The new draft.', codec: ContractView, location: true } },
    problems: [],
  },
  {
    method: 'put',
    path: '/v1.1/contracts/{contract_id}',
    operationId: 'replaceContract',
    summary: 'Replace a draft contract template',
    description:
      'A draft template’s content replaced by a body of the create’s own shape (HTML with its `{{tokens}}` and ' +
      'fields, or a PDF whose form fields are read from the file), checked the same way; its id and `created_at` ' +
      'stay. A published template never changes, since Requests show what they were made with: that is a 409 ' +
      '`template_published`; create another one.',
    tag: 'Contract templates',
    auth: 'access_token',
    idempotent: true,
    params: { contract_id: CONTRACT_ID },
    body: { codec: CreateContractBody },
    responses: { 200: { description: 'The template, as replaced.', codec: ContractView } },
    problems: ['template_published'],
  },
  {
    method: 'patch',
    path: '/v1.1/contracts/{contract_id}',
    operationId: 'patchContract',
    summary: 'Rename a draft contract template, or change its fields, without its document',
    description:
      'A draft template’s `name`, its `fields` (an HTML template’s declared fields, or a PDF’s rules for its own ' +
      'form fields, ADR 3670) or both, without sending its HTML or PDF again (ADR 3890). `fields` replaces them ' +
      'whole, checked as a `PUT` with the stored document would check them (the tokens, the PDF’s own fields read ' +
      'from the kept file); `[]` removes them. A name alone changes nothing else. An empty body is a 422. A ' +
      'published template is a 409 `template_published`. Told by `contract.updated`.',
    tag: 'Contract templates',
    auth: 'access_token',
    idempotent: true,
    params: { contract_id: CONTRACT_ID },
    body: { codec: PatchContractBody },
    responses: { 200: { description: 'The template, as changed.', codec: ContractView } },
    problems: ['template_published'],
  },
  {
    method: 'delete',
    path: '/v1.1/contracts/{contract_id}',
    operationId: 'deleteContract',
    summary: 'Delete a contract template',
    description:
      'A draft template is forgotten (no Request can use a draft). A published one, archived or not, is deleted ' +
      'for every call: it is no longer read, listed or copied, and a new Request, copy, bulk send or added ' +
      'contract naming it is a 422 at that contract. The Requests already made with it are unaffected: they ' +
      'are sent and signed with it, and are still listed by `contract_id`. Not undone; archive a template to keep ' +
      'it. Told by `contract.deleted`.',
    tag: 'Contract templates',
    auth: 'access_token',
    params: { contract_id: CONTRACT_ID },
    responses: { 204: { description: 'Deleted.' } },
    problems: [],
  },
];
