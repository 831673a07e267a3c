import assert from 'node:assert/strict';
import { clashProblem, typeClash, type TemplateSpec } from '../../src/domain/contract-template.js';
import { kindOf, typedFields } from '../../src/domain/document.js';
import { addDraftContract } from '../../src/domain/draft-contracts.js';
import { createSignatureRequest } from '../../src/domain/request-creation.js';
import { body, creationInput, draft, htmlSpec, later, left, NOW, right } from '../support/builders.js';

const NDA = htmlSpec();
/** A second template naming NDA's `agree` as text, and its `full_name` as a date. */
const CLASHING = htmlSpec({
  id: 21,
  name: 'Annex',
  fields: [
    { name: 'agree', type: 'text', maxLength: null },
    { name: 'signature', type: 'signature' },
  ],
});
/** A PDF-like template whose text field shares a date field's name. */
const DATED = htmlSpec({ id: 22, name: 'Start', fields: [{ name: 'start_on', type: 'date' }] });
const TEXT = htmlSpec({
  id: 23,
  name: 'Form',
  fields: [{ name: 'start_on', type: 'text', maxLength: null }],
});
const plans = (id: number, options: string[]) =>
  htmlSpec({ id, name: `Plans ${id}`, fields: [{ name: 'plan', type: 'choice', options }] });
const SIGNED_ON = htmlSpec({ id: 24, name: 'Dated', fields: [{ name: 'start_on', type: 'date_signed' }] });

describe('requests domain: one field name, one type across a Request’s contracts', () => {
  it('finds a name declared as two types, and lets a text field share a date field’s name', () => {
    assert.deepEqual(typeClash([NDA, CLASHING]), {
      name: 'agree',
      index: 1,
      type: 'text',
      otherIndex: 0,
      otherType: 'checkbox',
    });
    assert.equal(typeClash([NDA, NDA]), undefined);
    assert.equal(typeClash([TEXT, DATED, TEXT]), undefined);
    assert.equal(typeClash([DATED, SIGNED_ON])?.name, 'start_on', 'a date picked is not the date signed');
    assert.equal(typeClash([TEXT, SIGNED_ON, DATED])?.type, 'date');
  });

  it('asks two choices of one name for an option in common: a signer’s answer must be one of each', () => {
    assert.equal(typeClash([plans(31, ['basic', 'pro']), plans(32, ['pro', 'max'])]), undefined);
    const none = typeClash([plans(31, ['basic', 'pro']), plans(32, ['pro', 'max']), plans(33, ['basic'])]);
    assert.deepEqual(none, {
      name: 'plan',
      index: 2,
      type: 'choice',
      otherIndex: 0,
      otherType: 'choice',
      noCommonOption: true,
    });
    assert.equal(
      clashProblem(none, 'contracts[0]'),
      'declares choice field "plan" with no option that contracts[0] also offers: a signer\'s answer must be an option of both',
    );
  });

  it('a field shared by a text and a date field is the date, whichever contract comes first', () => {
    const request = draft({
      fields: [{ name: 'start_on', defaultValue: null, assignedTo: 'alice@example.com' }],
    });
    assert.equal(kindOf(typedFields(request, [TEXT, DATED])[0]!), 'date');
    assert.equal(kindOf(typedFields(request, [DATED, TEXT])[0]!), 'date');
  });

  it('refuses a create whose contracts disagree, at the later contract', () => {
    const refused = left(
      createSignatureRequest(
        creationInput({
          templates: [NDA, CLASHING],
          body: body({ contracts: [NDA.id, CLASHING.id], signers: [{ signer_id: 'x-1' }] }),
        }),
      ),
    );
    assert.deepEqual(refused.errors, [
      {
        path: 'contracts[1]',
        message:
          'declares field "agree" as text, and contracts[0] declares it as checkbox: a name is one field, so its contracts must agree on its type',
      },
    ]);
    right(
      createSignatureRequest(
        creationInput({
          templates: [TEXT, DATED],
          body: body({ contracts: [TEXT.id, DATED.id], signers: [{ signer_id: 'x-1' }] }),
        }),
      ),
    );
  });

  it('refuses to add a contract to a draft that disagrees with one it has, at contract_id', () => {
    const specs = new Map<number, TemplateSpec>([NDA, CLASHING].map((t) => [t.id, t]));
    const refused = left(addDraftContract(draft(), CLASHING, CLASHING.id, specs, later(NOW, 60)));
    assert.deepEqual(refused, {
      _tag: 'InvalidRequest',
      errors: [
        {
          path: 'contract_id',
          message: `contract template 21 declares field "agree" as text, and contract template ${NDA.id} on this Request declares it as checkbox: a name is one field, so its contracts must agree on its type`,
        },
      ],
    });
  });
});
