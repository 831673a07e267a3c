import assert from 'node:assert/strict';
import { sealValidityWarning } from '../../src/adapters/pdf/signing-identity.js';

describe('requests: what the service says at start about its seal certificate', () => {
  const validity = {
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2027-01-01T00:00:00Z'),
  };

  it('says nothing while it has 30 days or more left', () => {
    assert.equal(sealValidityWarning(validity, new Date('2026-06-01T00:00:00Z')), undefined);
    assert.equal(sealValidityWarning(validity, new Date('2026-12-02T00:00:00Z')), undefined);
  });

  it('warns with the date and the days left inside the last 30', () => {
    assert.equal(
      sealValidityWarning(validity, new Date('2026-12-03T00:00:00Z')),
      "the seal's certificate expires on 2027-01-01T00:00:00.000Z, in 29 days: configure its successor",
    );
  });

  it('says that nothing is issued with a certificate expired or not yet valid', () => {
    assert.match(
      sealValidityWarning(validity, new Date('2027-01-02T00:00:00Z')) ?? '',
      /^the seal's certificate expired on 2027-01-01T00:00:00.000Z: executed documents are not issued/,
    );
    assert.match(
      sealValidityWarning(validity, new Date('2025-12-31T00:00:00Z')) ?? '',
      /^the seal's certificate is valid from 2026-01-01T00:00:00.000Z only/,
    );
  });
});
