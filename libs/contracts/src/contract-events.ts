import * as t from 'io-ts';
import { envelope } from './event-envelope.js';

/**
 * The sender added a contract to a draft (ADR 3300): the template, last, and the fields it
 * brought that the Request did not have, with no signer and no value yet.
 */
export const RequestContractAdded = envelope(
  'request.contract_added',
  t.type({ request_id: t.string, contract_id: t.number, name: t.string, added_fields: t.array(t.string) }),
);
export type RequestContractAdded = t.TypeOf<typeof RequestContractAdded>;

/**
 * The sender removed a contract from a draft (ADR 3300): the template, the fields that
 * went with it (no other contract of the Request has them), and the `render_data` keys
 * that none of the others' tokens use any more.
 */
export const RequestContractRemoved = envelope(
  'request.contract_removed',
  t.type({
    request_id: t.string,
    contract_id: t.number,
    name: t.string,
    removed_fields: t.array(t.string),
    removed_render_data: t.array(t.string),
  }),
);
export type RequestContractRemoved = t.TypeOf<typeof RequestContractRemoved>;

/**
 * The sender put a draft's contracts in a new order (ADR 3310): all of them, as they now
 * stand. Its fields follow the contracts' order; nothing else changed.
 */
export const RequestContractsReordered = envelope(
  'request.contracts_reordered',
  t.type({ request_id: t.string, contracts: t.array(t.type({ id: t.number, name: t.string })) }),
);
export type RequestContractsReordered = t.TypeOf<typeof RequestContractsReordered>;
