import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { Registry } from 'prom-client';
import { executedDocumentMetrics } from '../../src/adapters/metrics/executed-document-metrics.js';
import type { DocumentSealer } from '../../src/ports/document-sealer.js';

/** A sealer that answers at once, or rejects as a broken one does. */
const fakeSealer = (fails: () => boolean): DocumentSealer => ({
  seal: (pdf) => () =>
    fails()
      ? Promise.reject(new Error('no key'))
      : Promise.resolve(E.right({ pdf, certificateSha256: 'c'.repeat(64), timestampedAt: null })),
});

const valueOf = async (registry: Registry, name: string) =>
  (await registry.getSingleMetric(name)!.get()).values[0]?.value;

describe('executed-document metrics: seals and failures on /metrics', () => {
  it('counts the seals a sealer completes, not those that fail, and the issuer’s failures', async () => {
    const registry = new Registry();
    const metrics = executedDocumentMetrics(registry);
    let failNext = false;
    const sealer = metrics.counting(fakeSealer(() => failNext));
    const details = { reason: 'Request 1', signingTime: new Date('2026-11-02T10:00:00Z') };
    const sealed = await sealer.seal(new Uint8Array([1, 2, 3]), details)();
    assert.ok(E.isRight(sealed));
    assert.deepEqual(sealed.right.pdf, new Uint8Array([1, 2, 3]), 'the seal passes through unchanged');
    await sealer.seal(new Uint8Array([4]), details)();
    failNext = true;
    await assert.rejects(sealer.seal(new Uint8Array([5]), details)(), /no key/);
    assert.equal(await valueOf(registry, 'requests_executed_document_seals_total'), 2);

    assert.equal(await valueOf(registry, 'requests_executed_document_failures_total'), 0);
    metrics.failed(0);
    metrics.failed(3);
    assert.equal(await valueOf(registry, 'requests_executed_document_failures_total'), 3);
    assert.match(await registry.metrics(), /^# HELP requests_executed_document_seals_total /m);
    assert.equal(sealer.validity, undefined);
  });

  it("shows when the seal's certificate expires, and passes its validity on", async () => {
    const registry = new Registry();
    const metrics = executedDocumentMetrics(registry);
    assert.doesNotMatch(await registry.metrics(), /^requests_seal_certificate_expiry_timestamp_seconds /m);
    const validity = {
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
    };
    const sealer = metrics.counting({ ...fakeSealer(() => false), validity });
    assert.equal(
      await valueOf(registry, 'requests_seal_certificate_expiry_timestamp_seconds'),
      1_798_761_600,
    );
    assert.deepEqual(sealer.validity, validity);
  });
});
