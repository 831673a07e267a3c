import assert from 'node:assert/strict';
import { typedFields } from '../../src/domain/document.js';
import { fieldEntries } from '../../src/domain/field-values.js';
import type { SignerAct } from '../../src/domain/signing.js';
import { htmlSpec, sent } from '../support/builders.js';

const spec = htmlSpec({
  fields: [
    { name: 'full_name', type: 'text', maxLength: 50 },
    { name: 'terms', type: 'checkbox' },
    { name: 'signed_on', type: 'date_signed' },
    { name: 'signature', type: 'signature' },
    { name: 'witness', type: 'text', maxLength: null },
    { name: 'reference', type: 'text', maxLength: null },
  ],
});
const request = sent({
  fields: [
    { name: 'full_name', defaultValue: 'Al', assignedTo: 'alice@example.com' },
    { name: 'terms', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signed_on', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signature', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'witness', defaultValue: 'Wendy', assignedTo: 'bob' },
    { name: 'reference', defaultValue: 'REF-7', assignedTo: null },
  ],
});
const fields = typedFields(request, [spec]);
const alice = request.signers[0]!;
const act = (kind: SignerAct['kind'], signerId: string): SignerAct => ({
  signerRef: alice.signerRef,
  signerId,
  contact: alice.contact,
  kind,
  at: '2030-01-02T23:59:30.000Z',
  ip: '1.2.3.4',
  userAgent: 'UA',
  documentSha256: '0'.repeat(64),
  typedName: kind === 'signed' ? 'Alice A.' : null,
  drawnSignature: null,
  values: kind === 'signed' ? { full_name: 'Alice', terms: true } : {},
  reason: kind === 'signed' ? null : 'no',
  authentication: null,
});

describe('requests domain: what the signers entered, as the executed document shows it (ADR 3730)', () => {
  it('answers what each signer entered once they signed, the pre-filled value before, null where none', () => {
    const entries = fieldEntries(fields, [act('signed', alice.signerId), act('declined', 'bob')]);
    assert.deepEqual(
      entries.map((e) => [e.name, e.type, e.assignedTo, e.value, e.filledAt]),
      [
        ['full_name', 'text', 'alice@example.com', 'Alice', '2030-01-02T23:59:30.000Z'],
        ['terms', 'checkbox', 'alice@example.com', true, '2030-01-02T23:59:30.000Z'],
        ['signed_on', 'date_signed', 'alice@example.com', '2030-01-02', '2030-01-02T23:59:30.000Z'],
        ['signature', 'signature', 'alice@example.com', 'Alice A.', '2030-01-02T23:59:30.000Z'],
        // Bob declined: nothing he entered, his field as pre-filled.
        ['witness', 'text', 'bob', 'Wendy', null],
        ['reference', 'text', null, 'REF-7', null],
      ],
    );
    assert.deepEqual(
      fieldEntries(fields, []).map((e) => e.value),
      ['Al', null, null, null, 'Wendy', 'REF-7'],
    );
  });
});
