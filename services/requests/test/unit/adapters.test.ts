import assert from 'node:assert/strict';
import { testGatewayKeys } from '@esign/testing';
import * as E from 'fp-ts/lib/Either.js';
import { decodeConfig } from '@esign/platform';
import { hmacUrlSigner } from '../../src/adapters/crypto/hmac-url-signer.js';
import { canonicalJson } from '@esign/contracts';
import { idempotencyOf, listQuery } from '../../src/adapters/http/params.js';
import { Config, defaults, parseSigningKeys } from '../../src/config.js';
import { pooledRandomText, randomIds } from '../../src/adapters/system.js';

const OLD = { id: 'old', secret: 'the-old-secret-that-is-long-enough-00' };
const NEW = { id: 'new', secret: 'the-new-secret-that-is-long-enough-00' };
const R = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

describe('requests adapters (no I/O)', () => {
  describe('signer references from a pool of random bytes', () => {
    it('are 96 bits each, base64url, and none repeats across many refills of the pool', () => {
      const seen = new Set<string>();
      for (let n = 0; n < 10_000; n += 1) {
        const ref = randomIds.signerRef();
        assert.match(ref, /^[A-Za-z0-9_-]{16}$/);
        assert.equal(Buffer.from(ref, 'base64url').length, 12);
        seen.add(ref);
      }
      assert.equal(seen.size, 10_000);
    });

    it('refills the pool when it is used up, with new bytes', () => {
      const next = pooledRandomText(4, 2);
      const texts = Array.from({ length: 6 }, next);
      assert.equal(new Set(texts).size, 6, texts.join(' '));
      for (const text of texts) assert.equal(Buffer.from(text, 'base64url').length, 4);
    });
  });

  describe('Execution URL signatures', () => {
    it('verifies its own signature and nothing altered', () => {
      const signer = hmacUrlSigner([NEW]);
      const sig = signer.sign(R, 'ref-a');
      assert.match(sig, /^new\.[A-Za-z0-9_-]{43}$/);
      assert.ok(signer.verify(R, 'ref-a', sig));
      assert.ok(!signer.verify(R, 'ref-b', sig), 'another signer');
      assert.ok(!signer.verify('3f2504e0-4f89-41d3-9a0c-0305e82c3302', 'ref-a', sig), 'another request');
      const tail = sig.at(-1) === 'A' ? 'B' : 'A';
      assert.ok(!signer.verify(R, 'ref-a', sig.slice(0, -1) + tail), 'one character changed');
      assert.ok(!signer.verify(R, 'ref-a', `${sig}=`), 'padding appended');
      for (const bad of ['', 'new', 'new.', '.abc', 'unknown.' + sig.slice(4)])
        assert.ok(!signer.verify(R, 'ref-a', bad), bad);
    });

    it('LOW 8: signs each link version apart, so a reissued link and the one it replaced differ', () => {
      const signer = hmacUrlSigner([NEW]);
      const first = signer.sign(R, 'ref-a');
      const second = signer.sign(R, 'ref-a', 2);
      assert.match(second, /^new\.2\.[A-Za-z0-9_-]{43}$/);
      assert.ok(signer.verify(R, 'ref-a', second));
      assert.equal(signer.versionOf(second), 2);
      assert.equal(signer.versionOf(first), 0);
      // The version is inside the MAC: it cannot be raised or lowered by hand.
      const mac = second.split('.')[2]!;
      for (const forged of [`new.3.${mac}`, `new.1.${mac}`, `new.${mac}`, `new.02.${mac}`, `new.x.${mac}`])
        assert.ok(!signer.verify(R, 'ref-a', forged), forged);
      assert.ok(!signer.verify(R, 'ref-a', `new.2.${first.split('.')[1]!}`), 'a first link relabelled');
    });

    it('rotates: the first key signs, every listed key verifies', () => {
      const before = hmacUrlSigner([OLD]).sign(R, 'ref-a');
      const rotated = hmacUrlSigner([NEW, OLD]);
      assert.ok(rotated.verify(R, 'ref-a', before), 'URLs already sent keep working');
      assert.match(rotated.sign(R, 'ref-a'), /^new\./);
      assert.ok(!hmacUrlSigner([NEW]).verify(R, 'ref-a', before), 'until the old key is removed');
    });
  });

  describe('configuration', () => {
    const env = {
      PRINCIPAL_PUBLIC_KEY: testGatewayKeys.publicKeyEnv,
      URL_SIGNING_KEYS: `k1:${'s'.repeat(32)}`,
    };

    it('parses kid:secret pairs and refuses short secrets, bad ids and duplicates', () => {
      assert.deepEqual(
        parseSigningKeys(`a:${'1'.repeat(32)}, b:${'2'.repeat(40)}`),
        E.right([
          { id: 'a', secret: '1'.repeat(32) },
          { id: 'b', secret: '2'.repeat(40) },
        ]),
      );
      assert.deepEqual(
        parseSigningKeys('a:short'),
        E.left('has a secret shorter than 32 characters for key "a"'),
      );
      assert.ok(E.isLeft(parseSigningKeys(`no-colon${'1'.repeat(32)}`)));
      assert.ok(E.isLeft(parseSigningKeys(`bad id:${'1'.repeat(32)}`)));
      assert.deepEqual(
        parseSigningKeys(`a:${'1'.repeat(32)},a:${'2'.repeat(32)}`),
        E.left('names key "a" twice'),
      );
    });

    it('requires the internal token secret and the URL signing keys, with no defaults', () => {
      const config = decodeConfig(Config, defaults, env);
      assert.equal(config.PUBLIC_BASE_URL, 'http://localhost:8080');
      assert.deepEqual(config.URL_SIGNING_KEYS, [{ id: 'k1', secret: 's'.repeat(32) }]);
      assert.throws(
        () => decodeConfig(Config, defaults, {}),
        /PRINCIPAL_PUBLIC_KEY is required.*URL_SIGNING_KEYS is required/,
      );
      assert.throws(
        () => decodeConfig(Config, defaults, { ...env, PRINCIPAL_PUBLIC_KEY: testGatewayKeys.signingKeyEnv }),
        /PRINCIPAL_PUBLIC_KEY must be the public key only/,
      );
      assert.throws(
        () => decodeConfig(Config, defaults, { ...env, IDEMPOTENCY_RETENTION_HOURS: '1' }),
        /IDEMPOTENCY_RETENTION_HOURS/,
      );
    });
  });

  describe('HTTP parameters', () => {
    it('fingerprints a call by method, path and body, whatever the key order', () => {
      assert.equal(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null }), '{"a":null,"b":[1,{"c":2,"d":1}]}');
      const one = idempotencyOf('k', 'POST', '/v1.1/x', { a: 1, b: 2 });
      const two = idempotencyOf('k', 'POST', '/v1.1/x', { b: 2, a: 1 });
      const other = idempotencyOf('k', 'POST', '/v1.1/y', { a: 1, b: 2 });
      assert.ok(E.isRight(one) && E.isRight(two) && E.isRight(other));
      assert.equal(one.right?.fingerprint, two.right?.fingerprint);
      assert.notEqual(one.right?.fingerprint, other.right?.fingerprint);
      assert.deepEqual(idempotencyOf(undefined, 'POST', '/', {}), E.right(undefined));
      assert.ok(E.isLeft(idempotencyOf('x'.repeat(256), 'POST', '/', {})));
      assert.ok(E.isLeft(idempotencyOf('tab\there', 'POST', '/', {})));
    });

    it('reads page, per_page and state, and names every bad parameter', () => {
      assert.deepEqual(listQuery({}, ['a', 'b']), {
        page: { page: 1, perPage: 20 },
        state: undefined,
        flags: {},
        texts: {},
        ids: {},
        uuids: {},
        search: undefined,
        times: {},
      });
      assert.deepEqual(listQuery({ page: '3', per_page: '100', state: 'b' }, ['a', 'b']), {
        page: { page: 3, perPage: 100 },
        state: 'b',
        flags: {},
        texts: {},
        ids: {},
        uuids: {},
        search: undefined,
        times: {},
      });
      // Issue #22: a list's boolean flags (`test_mode`) are true or false, nothing else.
      assert.deepEqual(listQuery({ test_mode: 'false' }, ['a'], { flags: ['test_mode'] }).flags, {
        test_mode: false,
      });
      // ADR 3200: a list's text parameters (`signer_id`) are 1 to 255 characters, given once.
      assert.deepEqual(listQuery({ signer_id: 'client-1' }, ['a'], { texts: ['signer_id'] }).texts, {
        signer_id: 'client-1',
      });
      // ADR 3340: a list's id parameters (`contract_id`) are one positive integer.
      assert.deepEqual(listQuery({ contract_id: '12' }, ['a'], { ids: ['contract_id'] }).ids, {
        contract_id: 12,
      });
      // ADR 3410: a list's resource ids (`copied_from`) are one UUID, read lower-case.
      const id = '0F8FAD5B-D9CB-469F-A165-70867728950E';
      assert.deepEqual(listQuery({ copied_from: id }, ['a'], { uuids: ['copied_from'] }).uuids, {
        copied_from: id.toLowerCase(),
      });
      for (const copied_from of ['nope', [id, id]])
        assert.throws(
          () => listQuery({ copied_from }, ['a'], { uuids: ['copied_from'] }),
          (e: { problem?: { errors?: { path: string }[] } }) =>
            e.problem?.errors?.[0]?.path === 'copied_from',
        );
      // ADR 3360: a list's search (`q`) is trimmed, then 1 to 255 characters, given once.
      assert.equal(listQuery({ q: '  Lease 2026 ' }, ['a'], { search: true }).search, 'Lease 2026');
      assert.equal(listQuery({}, ['a'], { search: true }).search, undefined);
      for (const q of ['', '   ', ['a', 'b'], 'x'.repeat(256)])
        assert.throws(
          () => listQuery({ q }, ['a'], { search: true }),
          (e: { problem?: { errors?: { path: string }[] } }) => e.problem?.errors?.[0]?.path === 'q',
        );
      // ADR 3370: a list's instants are ISO-8601 date-times with a zone, read as UTC.
      assert.deepEqual(
        listQuery({ created_from: '2026-11-01T01:00:00+01:00' }, ['a'], { times: ['created_from'] }).times,
        { created_from: '2026-11-01T00:00:00.000Z' },
      );
      for (const created_from of ['2026-11-01', '2026-11-01T00:00:00', ['2026-11-01T00:00:00Z']])
        assert.throws(
          () => listQuery({ created_from }, ['a'], { times: ['created_from'] }),
          (e: { problem?: { errors?: { path: string }[] } }) =>
            e.problem?.errors?.[0]?.path === 'created_from',
        );
      for (const contract_id of ['0', '1e3', ['1', '2'], '1234567890123456'])
        assert.throws(
          () => listQuery({ contract_id }, ['a'], { ids: ['contract_id'] }),
          (e: { problem?: { errors?: { path: string }[] } }) =>
            e.problem?.errors?.[0]?.path === 'contract_id',
        );
      for (const signer_id of ['', ['a', 'b'], 'x'.repeat(256)])
        assert.throws(
          () => listQuery({ signer_id }, ['a'], { texts: ['signer_id'] }),
          (e: { problem?: { errors?: { path: string }[] } }) => e.problem?.errors?.[0]?.path === 'signer_id',
        );
      assert.throws(
        () => listQuery({ test_mode: 'yes' }, ['a'], { flags: ['test_mode'] }),
        (e: { problem?: { errors?: { path: string }[] } }) => e.problem?.errors?.[0]?.path === 'test_mode',
      );
      assert.throws(
        () => listQuery({ page: ['1', '2'], per_page: '1.5', state: 'c', q: 'x' }, ['a', 'b']),
        (e: { problem: { errors: unknown } }) => {
          assert.deepEqual(e.problem.errors, [
            { path: 'q', message: 'unknown parameter' },
            { path: 'page', message: 'must be an integer from 1 to 1000000' },
            { path: 'per_page', message: 'must be an integer from 1 to 100' },
            { path: 'state', message: 'must be one of "a", "b"' },
          ]);
          return true;
        },
      );
    });
  });
});
