import assert from 'node:assert/strict';
import type { TemplateSpec } from '../../src/domain/contract-template.js';
import { addDraftContract, removeDraftContract } from '../../src/domain/draft-contracts.js';
import type { SignatureRequest } from '../../src/domain/signature-request.js';
import { draft, htmlSpec, later, left, NOW, pdfSpec, right, sent } from '../support/builders.js';

const AT = later(NOW, 60);
const NDA = htmlSpec();
const ORDER = htmlSpec({
  id: 13,
  name: 'Order',
  tokens: ['client_name', 'amount'],
  fields: [
    { name: 'signature', type: 'signature' },
    { name: 'order_signature', type: 'signature' },
  ],
});
const specs = (...templates: TemplateSpec[]) => new Map(templates.map((t) => [t.id, t]));
/** A draft of the NDA (field values and signers as the builder has them) with render_data. */
const nda = (overrides: Partial<SignatureRequest> = {}) =>
  draft({ renderData: { client_name: 'Acme', start_date: '2030-01-01' }, ...overrides });

describe('requests domain: a draft’s contracts added and removed (ADR 3300)', () => {
  it('adds a contract last; the fields it brings come after the others, unassigned, and a shared name stays as it is', () => {
    const before = nda();
    const t = right(addDraftContract(before, ORDER, ORDER.id, specs(NDA, ORDER), AT));
    assert.deepEqual(t.request.contracts, [
      { id: 11, name: 'NDA' },
      { id: 13, name: 'Order' },
    ]);
    assert.deepEqual(t.request.fields, [
      ...before.fields,
      { name: 'order_signature', defaultValue: null, assignedTo: null },
    ]);
    assert.deepEqual(t.events, [
      {
        type: 'request.contract_added',
        contract: { id: 13, name: 'Order' },
        addedFields: ['order_signature'],
      },
    ]);
    assert.equal(t.request.renderData, before.renderData);
    assert.equal(t.request.updatedAt, AT);
  });

  it('refuses, at contract_id, one of another Site or none, one already on it, unpublished or archived, a PDF beside render_data, and the 21st', () => {
    const pathsOf = (spec: TemplateSpec | undefined, request = nda(), id = spec?.id ?? 99): string[] => {
      const refused = left(addDraftContract(request, spec, id, specs(NDA, ...(spec ? [spec] : [])), AT));
      return refused._tag === 'InvalidRequest'
        ? refused.errors.map((e) => `${e.path}: ${e.message}`)
        : [refused._tag];
    };
    assert.deepEqual(pathsOf(undefined), ['contract_id: no contract template 99 on this site']);
    assert.deepEqual(pathsOf({ ...ORDER, siteId: 8 }), ['contract_id: no contract template 13 on this site']);
    assert.deepEqual(pathsOf(NDA), [
      'contract_id: contract template 11 is already a contract of this Request',
    ]);
    assert.match(pathsOf({ ...ORDER, state: 'draft' })[0]!, /is not published/);
    assert.match(pathsOf({ ...ORDER, archivedAt: NOW })[0]!, /is archived/);
    assert.match(pathsOf({ ...ORDER, deletedAt: NOW })[0]!, /was deleted/);
    assert.match(pathsOf(pdfSpec())[0]!, /is a PDF, and render_data applies to HTML contracts only/);
    assert.equal(
      right(addDraftContract(nda({ renderData: {} }), pdfSpec(), 12, specs(NDA, pdfSpec()), AT)).request
        .contracts.length,
      2,
    );
    const many = Array.from({ length: 20 }, (_, i) => htmlSpec({ id: 100 + i, fields: [], tokens: [] }));
    const full = draft({ contracts: many.map((m) => ({ id: m.id, name: m.name })), fields: [] });
    const refused = left(addDraftContract(full, ORDER, ORDER.id, specs(...many, ORDER), AT));
    assert.deepEqual(refused._tag === 'InvalidRequest' && refused.errors.map((e) => e.path), ['contract_id']);
  });

  it('removes a contract with the fields and render_data keys only it had; the others stay as they were', () => {
    const both = right(addDraftContract(nda(), ORDER, ORDER.id, specs(NDA, ORDER), AT)).request;
    const t = right(removeDraftContract(both, NDA.id, specs(NDA, ORDER), AT));
    assert.deepEqual(t.request.contracts, [{ id: 13, name: 'Order' }]);
    assert.deepEqual(
      t.request.fields.map((f) => [f.name, f.assignedTo]),
      [
        ['signature', 'bob'],
        ['order_signature', null],
      ],
    );
    assert.deepEqual(t.request.renderData, { client_name: 'Acme' });
    assert.deepEqual(t.events, [
      {
        type: 'request.contract_removed',
        contract: { id: 11, name: 'NDA' },
        removedFields: ['full_name'],
        removedRenderData: ['start_date'],
      },
    ]);
  });

  it('keeps the only contract, answers one the Request lacks as missing, and only a draft', () => {
    assert.deepEqual(left(removeDraftContract(nda(), 11, specs(NDA), AT)), { _tag: 'LastContract' });
    assert.deepEqual(left(removeDraftContract(nda(), 13, specs(NDA), AT)), {
      _tag: 'UnknownContract',
      contractId: 13,
    });
    assert.deepEqual(left(addDraftContract(sent(), ORDER, 13, specs(NDA, ORDER), AT)), {
      _tag: 'StateConflict',
      action: 'add_contract',
      state: 'sent',
    });
    assert.deepEqual(left(removeDraftContract(sent(), 11, specs(NDA), AT)), {
      _tag: 'StateConflict',
      action: 'remove_contract',
      state: 'sent',
    });
    assert.equal(
      left(removeDraftContract(draft({ expiresAt: NOW }), 11, specs(NDA), AT))._tag,
      'RequestExpired',
    );
  });

  it('asks for the templates again when one of the Request’s was not read (a contract added in between)', () => {
    const both = right(addDraftContract(nda(), ORDER, ORDER.id, specs(NDA, ORDER), AT)).request;
    assert.deepEqual(left(removeDraftContract(both, 11, specs(NDA), AT)), { _tag: 'TemplatesChanged' });
    const third = htmlSpec({ id: 14, name: 'Third', fields: [], tokens: [] });
    assert.deepEqual(left(addDraftContract(both, third, 14, specs(NDA, third), AT)), {
      _tag: 'TemplatesChanged',
    });
  });
});
