// Contract templates: created, listed, read and published; a draft's content replaced or the draft deleted.
import { ContractList, ContractView, CreateContractBody } from '../templates.js';
import { PAGE_QUERY, SITE_ID, stateQuery, type Operation } from './operation.js';

const CONTRACT_ID = { description: 'The contract template (an integer id).', integer: true } as const;

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
    query: { ...PAGE_QUERY, state: stateQuery(['draft', 'published']) },
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
    method: 'delete',
    path: '/v1.1/contracts/{contract_id}',
    operationId: 'deleteContract',
    summary: 'Delete a draft contract template',
    description:
      'A draft template is forgotten (no Request can use a draft). A published one is kept, a 409 ' +
      '`template_published`: Requests made with it show it.',
    tag: 'Contract templates',
    auth: 'access_token',
    params: { contract_id: CONTRACT_ID },
    responses: { 204: { description: 'Deleted.' } },
    problems: ['template_published'],
  },
];
