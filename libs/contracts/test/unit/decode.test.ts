import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  CreateRequestBody,
  decode,
  nonEmptyArray,
  NonEmptyString,
  strict,
  UpdateRequestSignerBody,
  type FieldError,
} from '../../src/index.js';

const errorsOf = (input: unknown): FieldError[] => {
  const result = decode(CreateRequestBody)(input);
  assert.ok(E.isLeft(result), 'expected a decode failure');
  return result.left;
};

describe('contracts: create body decoding', () => {
  it('accepts the minimum: one contract, one signer with a signer_id', () => {
    const result = decode(CreateRequestBody)({ contracts: [1], signers: [{ signer_id: 'a@b.co' }] });
    assert.ok(E.isRight(result));
  });

  it('names a missing signer_id by its path', () => {
    const errors = errorsOf({ contracts: [1], signers: [{ signer_id: 'x' }, {}] });
    assert.deepEqual(errors, [{ path: 'signers[1].signer_id', message: 'required' }]);
  });

  it('names missing top-level fields and empty arrays', () => {
    assert.deepEqual(errorsOf({}), [
      { path: 'contracts', message: 'required' },
      { path: 'signers', message: 'required' },
    ]);
    assert.deepEqual(errorsOf({ contracts: [], signers: [{ signer_id: 'x' }] }), [
      { path: 'contracts', message: 'must contain at least one item' },
    ]);
  });

  it('describes wrong types in words', () => {
    const errors = errorsOf({
      contracts: ['7'],
      signers: [{ signer_id: 'x' }],
      fields: [{ name: 'f', default_value: 3 }],
    });
    assert.deepEqual(errors, [
      { path: 'contracts[0]', message: 'must be a number' },
      { path: 'fields[0].default_value', message: 'must be a string or a boolean' },
    ]);
  });

  it('refuses unknown fields, naming them', () => {
    assert.deepEqual(errorsOf({ contracts: [1], signers: [{ signer_id: 'x', sendto: {} }] }), [
      { path: 'signers[0].sendto', message: 'unknown field' },
    ]);
  });

  it('validates contact details and URLs with messages a client can act on', () => {
    const errors = errorsOf({
      contracts: [1],
      signers: [{ signer_id: 'x', signer: { email: 'nope', mobile_number: '+44 7911 123456' } }],
      redirect_url: 'javascript:alert(1)',
    });
    assert.deepEqual(errors, [
      { path: 'signers[0].signer.email', message: 'must be an e-mail address' },
      {
        path: 'signers[0].signer.mobile_number',
        message: 'must be a US mobile number: country prefix 1 followed by 10 digits',
      },
      { path: 'redirect_url', message: 'must use http or https' },
    ]);
  });

  it('normalises US mobile numbers to 1 + 10 digits and e-mail to lower case', () => {
    const result = decode(CreateRequestBody)({
      contracts: [1],
      signers: [{ signer_id: 'x', signer: { email: 'Ann@Example.COM', mobile_number: '(555) 234-5678' } }],
    });
    assert.ok(E.isRight(result));
    assert.deepEqual(result.right.signers[0]!.signer, {
      email: 'ann@example.com',
      mobile_number: '15552345678',
    });
  });

  it('names a body that is not an object', () => {
    assert.deepEqual(errorsOf([]), [{ path: '(body)', message: 'must be an object' }]);
  });
});

describe('contracts: an object or null, decoded', () => {
  const errorsOfPatch = (input: unknown): FieldError[] => {
    const result = decode(UpdateRequestSignerBody)(input);
    assert.ok(E.isLeft(result), 'expected a decode failure');
    return result.left;
  };

  it('names the member of an object given where an object or null is taken', () => {
    assert.deepEqual(errorsOfPatch({ authentication: { method: 'access_code', access_code: '12' } }), [
      { path: 'authentication.access_code', message: 'must be at least 4 characters' },
    ]);
    assert.deepEqual(errorsOfPatch({ authentication: { method: 'email_otp', extra: 1 } }), [
      { path: 'authentication.extra', message: 'unknown field' },
    ]);
  });

  it('names the field itself for anything else, and a scalar or null as before', () => {
    assert.deepEqual(errorsOfPatch({ authentication: 5 }), [
      { path: 'authentication', message: 'must be an object or null' },
    ]);
    assert.deepEqual(errorsOfPatch({ order: 'x' }), [{ path: 'order', message: 'must be a number or null' }]);
  });
});

describe('contracts: a member of a union chosen by the shape given', () => {
  // One condition or a list of them, as a field's `shown_if` (ADR 3850).
  const Condition = strict(
    { field: NonEmptyString },
    { equals: t.union([t.string, t.boolean, t.array(t.string)]) },
    'Condition',
  );
  const Conditions = t.union([Condition, nonEmptyArray(Condition, 20, 'Conditions')]);
  const errorsOfShownIf = (input: unknown): FieldError[] => {
    const result = decode(Conditions)(input);
    assert.ok(E.isLeft(result), 'expected a decode failure');
    return result.left;
  };

  it('names what is wrong inside one condition, or inside one of a list of them', () => {
    assert.deepEqual(errorsOfShownIf({ field: 'a', equals: 5 }), [
      { path: 'equals', message: 'must be a string or a boolean or an array' },
    ]);
    assert.deepEqual(errorsOfShownIf([{ field: 'a' }, { field: '' }]), [
      { path: '[1].field', message: 'must not be empty' },
    ]);
    assert.deepEqual(errorsOfShownIf([{ field: 'a' }, { field: 'b', extra: 1 }]), [
      { path: '[1].extra', message: 'unknown field' },
    ]);
    assert.deepEqual(errorsOfShownIf([{ field: 'a', equals: ['Pro', 5] }]), [
      { path: '[0].equals[1]', message: 'must be a string' },
    ]);
    assert.deepEqual(errorsOfShownIf([]), [{ path: '(body)', message: 'must contain at least one item' }]);
  });

  it('names the whole for anything but an object or an array', () => {
    assert.deepEqual(errorsOfShownIf('married'), [
      { path: '(body)', message: 'must be an object or an array' },
    ]);
  });
});
