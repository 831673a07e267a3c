import assert from 'node:assert/strict';
import { checkDefaultValue, declareFields } from '../../src/domain/contract-template.js';
import { typedFields } from '../../src/domain/document.js';
import { executedValue, fieldsToFill, filledAtSigning, type SignerAct } from '../../src/domain/signing.js';
import { htmlSpec, later, NOW, right, sent } from '../support/builders.js';

const spec = htmlSpec({
  fields: [
    { name: 'full_name', type: 'text', maxLength: 50 },
    { name: 'signed_on', type: 'date_signed' },
    { name: 'witnessed_on', type: 'date_signed' },
  ],
});
const request = sent({
  fields: [
    { name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signed_on', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'witnessed_on', defaultValue: null, assignedTo: 'bob' },
  ],
});
const fields = typedFields(request, [spec]);
const alice = request.signers[0]!;

/** Alice's signing act, late in the evening UTC on the day after NOW. */
const act: SignerAct = {
  signerRef: alice.signerRef,
  signerId: alice.signerId,
  contact: alice.contact,
  kind: 'signed',
  at: '2030-01-02T23:59:30.000Z',
  ip: '1.2.3.4',
  userAgent: 'UA',
  documentSha256: '0'.repeat(64),
  typedName: 'Alice',
  drawnSignature: null,
  values: { full_name: 'Alice', signed_on: '1999-09-09' },
  reason: null,
  authentication: null,
};

describe('requests domain: a field holding the date its signer signs on (ADR 3570)', () => {
  it('is declared by an HTML template, takes no options or length, and is never pre-filled', () => {
    assert.deepEqual(right(declareFields([{ name: 'signed_on', type: 'date_signed' }])), [
      { name: 'signed_on', type: 'date_signed' },
    ]);
    assert.match(
      checkDefaultValue({ name: 'signed_on', type: 'date_signed' }, '2030-01-01') ?? '',
      /is not allowed: "signed_on" is the date its signer signs on/,
    );
  });

  it('is not typed on the signer’s page: the page names it among theirs to be dated', () => {
    assert.deepEqual(
      fieldsToFill(fields, alice).map((f) => f.name),
      ['full_name'],
    );
    assert.deepEqual(
      filledAtSigning(fields, alice, 'date_signed').map((f) => f.name),
      ['signed_on'],
      'Bob’s date is not Alice’s',
    );
  });

  it('holds the UTC date of its signer’s signing act, whatever the form posted, and nothing before', () => {
    assert.equal(executedValue(fields[1]!, [act]), '2030-01-02');
    assert.equal(executedValue(fields[2]!, [act]), null, 'Bob has not signed');
    assert.equal(executedValue(fields[1]!, [{ ...act, kind: 'declined' }]), null);
    assert.equal(executedValue(fields[1]!, [{ ...act, at: later(NOW, 60) }]), later(NOW, 60).slice(0, 10));
  });
});
