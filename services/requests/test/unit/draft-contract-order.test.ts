import assert from 'node:assert/strict';
import type { TemplateSpec } from '../../src/domain/contract-template.js';
import { addDraftContract, reorderDraftContracts } from '../../src/domain/draft-contracts.js';
import { draft, htmlSpec, later, left, NOW, right, sent } from '../support/builders.js';

const AT = later(NOW, 60);
const NDA = htmlSpec();
const ORDER = htmlSpec({
  id: 13,
  name: 'Order',
  tokens: ['amount'],
  fields: [
    { name: 'signature', type: 'signature' },
    { name: 'order_signature', type: 'signature' },
  ],
});
const SCHEDULE = htmlSpec({
  id: 14,
  name: 'Schedule',
  tokens: [],
  fields: [{ name: 'initials', type: 'text', maxLength: null }],
});
const specs = (...templates: TemplateSpec[]) => new Map(templates.map((t) => [t.id, t]));
const ALL = specs(NDA, ORDER, SCHEDULE);
/** A draft of the NDA, the Order and the Schedule, in that order, with values and signers on some fields. */
const three = () => {
  const withOrder = right(
    addDraftContract(draft({ renderData: { amount: '10' } }), ORDER, 13, ALL, AT),
  ).request;
  const all = right(addDraftContract(withOrder, SCHEDULE, 14, ALL, AT)).request;
  return {
    ...all,
    fields: all.fields.map((f) =>
      f.name === 'initials' ? { ...f, defaultValue: 'JD', assignedTo: 'bob' } : f,
    ),
  };
};
const errorsOf = (contractIds: number[]) => {
  const refused = left(reorderDraftContracts(three(), contractIds, ALL, AT));
  return refused._tag === 'InvalidRequest'
    ? refused.errors.map((e) => `${e.path}: ${e.message}`)
    : [refused._tag];
};

describe('requests domain: a draft’s contracts put in a new order (ADR 3310)', () => {
  it('puts the contracts in the order given; the fields follow, each at the first contract that has it, with their signers and values', () => {
    const before = three();
    assert.deepEqual(
      before.fields.map((f) => f.name),
      ['full_name', 'signature', 'order_signature', 'initials'],
    );
    const t = right(reorderDraftContracts(before, [14, 13, 11], ALL, AT));
    assert.deepEqual(t.request.contracts, [
      { id: 14, name: 'Schedule' },
      { id: 13, name: 'Order' },
      { id: 11, name: 'NDA' },
    ]);
    assert.deepEqual(t.request.fields, [
      { name: 'initials', defaultValue: 'JD', assignedTo: 'bob' },
      { name: 'signature', defaultValue: null, assignedTo: 'bob' },
      { name: 'order_signature', defaultValue: null, assignedTo: null },
      { name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' },
    ]);
    assert.deepEqual(t.events, [{ type: 'request.contracts_reordered' }]);
    assert.equal(t.request.renderData, before.renderData);
    assert.equal(t.request.signers, before.signers);
    assert.equal(t.request.updatedAt, AT);
  });

  it('keeps the very fields when their order stands, and changes nothing for the order the draft has', () => {
    const before = three();
    // The Schedule's one field is last either way.
    const swapped = right(reorderDraftContracts(before, [11, 14, 13], ALL, AT));
    assert.deepEqual(
      swapped.request.fields.map((f) => f.name),
      ['full_name', 'signature', 'initials', 'order_signature'],
    );
    const one = before.fields.slice(0, 1);
    const sameFields = right(reorderDraftContracts({ ...before, fields: one }, [11, 14, 13], ALL, AT));
    assert.equal(sameFields.request.fields, one);
    const unchanged = right(reorderDraftContracts(before, [11, 13, 14], ALL, AT));
    assert.equal(unchanged.request, before);
    assert.deepEqual(unchanged.events, []);
  });

  it('refuses a list that does not name each contract exactly once, at the element or at the list', () => {
    assert.deepEqual(errorsOf([11, 13, 99]), [
      'contract_ids[2]: contract template 99 is not a contract of this Request',
      'contract_ids: must name every contract of this Request once; left out: 14',
    ]);
    assert.deepEqual(errorsOf([11, 13, 14, 13]), [
      'contract_ids[3]: contract template 13 is named more than once',
    ]);
    assert.deepEqual(errorsOf([14, 11]), [
      'contract_ids: must name every contract of this Request once; left out: 13',
    ]);
  });

  it('only on a draft before its expiry, and asks for the templates again when one was not read', () => {
    assert.deepEqual(left(reorderDraftContracts(sent(), [11], specs(NDA), AT)), {
      _tag: 'StateConflict',
      action: 'reorder_contracts',
      state: 'sent',
    });
    assert.equal(
      left(reorderDraftContracts({ ...three(), expiresAt: NOW }, [14, 13, 11], ALL, AT))._tag,
      'RequestExpired',
    );
    assert.deepEqual(left(reorderDraftContracts(three(), [14, 13, 11], specs(NDA, ORDER), AT)), {
      _tag: 'TemplatesChanged',
    });
  });
});
