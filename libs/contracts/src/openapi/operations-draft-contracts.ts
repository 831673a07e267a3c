import { RequestView } from '../api.js';
import { AddRequestContractBody, ReorderRequestContractsBody } from '../request-settings.js';
import type { Operation } from './operation.js';
import { REQUEST_ID, requestAnswer } from './operations-request-signers.js';

/** A draft's contracts added and removed (ADR 3300), and put in a new order (ADR 3310). */
export const DRAFT_CONTRACT_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1.1/requests/{request_id}/contracts',
    operationId: 'addRequestContract',
    summary: 'Add a contract to a draft',
    description:
      'Adds one published, unarchived template of the Request’s Site to a draft, last. The fields it brings that ' +
      'the Request does not have yet are added after the others, with no signer and no value: assign them with ' +
      '`PATCH /v1.1/requests/{request_id}` (`fields`) before sending. A field name the Request already has stays ' +
      'as it is. 422 at `contract_id` for a template of another Site or none, one not published or archived, one ' +
      'already on the Request, a PDF while the Request has `render_data` (which applies to HTML contracts only), or ' +
      'more than 20 contracts. Nothing is sent. Writes the `request.contract_added` event (a webhook). A sent ' +
      'Request is a 409: its signers have been shown the document.',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: { request_id: REQUEST_ID },
    body: { codec: AddRequestContractBody, required: true },
    responses: {
      201: { description: 'The Request, the new contract last in `contracts`.', codec: RequestView },
    },
    problems: ['invalid_state', 'request_expired', 'request_changed', 'test_mode_only_token'],
  },
  {
    method: 'delete',
    path: '/v1.1/requests/{request_id}/contracts/{contract_id}',
    operationId: 'removeRequestContract',
    summary: 'Remove a contract from a draft',
    description:
      'Removes one contract from a draft. The fields that no other contract of the Request has go with it, with ' +
      'their signers and values, and so do the `render_data` keys that no other contract’s tokens use; the ' +
      '`request.contract_removed` event (a webhook) names both. The draft’s only contract is kept (409 ' +
      '`last_contract`). A sent Request is a 409.',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: {
      request_id: REQUEST_ID,
      contract_id: {
        description: 'The template’s id (an integer), as in the Request’s `contracts`.',
        integer: true,
      },
    },
    responses: requestAnswer('The Request without the contract.'),
    problems: [
      'invalid_state',
      'request_expired',
      'last_contract',
      'request_changed',
      'test_mode_only_token',
    ],
  },
  {
    method: 'put',
    path: '/v1.1/requests/{request_id}/contracts',
    operationId: 'reorderRequestContracts',
    summary: 'Put a draft’s contracts in a new order',
    description:
      'Puts a draft’s contracts in the order of `contract_ids`, the order its signers read them in and the ' +
      'executed document holds them. `contract_ids` names each of the Request’s contracts exactly once: a 422 ' +
      'at `contract_ids[i]` for one the Request lacks or one named twice, at `contract_ids` for one left out. ' +
      'The fields follow the contracts’ order (each at the first contract that has it); every signer, value, ' +
      'and `render_data` stays as it was. The order it already has changes nothing and writes no event; ' +
      'otherwise it writes the `request.contracts_reordered` event (a webhook). A sent Request is a 409.',
    tag: 'Requests',
    auth: 'access_token',
    idempotent: true,
    params: { request_id: REQUEST_ID },
    body: { codec: ReorderRequestContractsBody, required: true },
    responses: requestAnswer('The Request, its `contracts` and `fields` in the new order.'),
    problems: ['invalid_state', 'request_expired', 'request_changed', 'test_mode_only_token'],
  },
];
