import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { problem, type FieldError } from '@esign/contracts';
import {
  decodeBody,
  HttpProblem,
  integerIdParam,
  pageQuery,
  principalOf,
  runWith,
  signPrincipal,
  uuidParam,
} from '@esign/platform';

const thrown = (f: () => unknown): HttpProblem => {
  try {
    f();
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
  throw new Error('did not throw');
};

describe('platform: the HTTP edge kit', () => {
  it('reads page and per_page, defaulting to 1 and 20, and names each bad one', () => {
    const errors: FieldError[] = [];
    assert.deepEqual(pageQuery({}, errors), { page: 1, perPage: 20 });
    assert.deepEqual(pageQuery({ page: '3', per_page: '100' }, errors), { page: 3, perPage: 100 });
    assert.deepEqual(errors, []);
    pageQuery({ page: '0', per_page: '101', other: 'x' }, errors);
    assert.deepEqual(errors, [
      { path: 'page', message: 'must be an integer from 1 to 1000000' },
      { path: 'per_page', message: 'must be an integer from 1 to 100' },
    ]);
  });

  it('refuses unknown parameters by name, first, when told which are known', () => {
    const errors: FieldError[] = [];
    pageQuery({ state: 'sent', colour: 'red', page: ['1', '2'] }, errors, { known: ['state'] });
    assert.deepEqual(errors, [
      { path: 'colour', message: 'unknown parameter' },
      { path: 'page', message: 'must be an integer from 1 to 1000000' },
    ]);
  });

  it('decodes a body or throws the 422 naming the field; an absent body is {} unless said otherwise', () => {
    const Body = t.type({ name: t.string });
    assert.deepEqual(decodeBody(Body, { request: { body: { name: 'x' } } }), { name: 'x' });
    const invalid = thrown(() => decodeBody(Body, { request: {} }));
    assert.equal(invalid.problem.status, 422);
    assert.deepEqual(invalid.problem.errors, [{ path: 'name', message: 'required' }]);
    const Empty = t.type({});
    assert.deepEqual(decodeBody(Empty, { request: {} }), {});
    assert.equal(thrown(() => decodeBody(Empty, { request: {} }, { value: undefined })).problem.status, 422);
  });

  it('answers 404 for ids that cannot exist', () => {
    assert.equal(integerIdParam('42', 'site'), 42);
    assert.equal(thrown(() => integerIdParam('042', 'site')).problem.detail, 'No such site.');
    assert.equal(thrown(() => integerIdParam(undefined, 'site')).problem.status, 404);
    assert.equal(
      uuidParam('3F2504E0-4F89-41D3-9A0C-0305E82C3301', 'request'),
      '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
    );
    assert.equal(thrown(() => uuidParam('nope', 'request')).problem.detail, 'No such request.');
  });

  it('runs a use case, throwing its Left as the problem the table gives', async () => {
    const run = runWith((e: string) => new HttpProblem(problem({ status: 409, code: e, title: 'Conflict' })));
    assert.equal(await run(TE.right(1)), 1);
    await assert.rejects(
      run(TE.left('taken')),
      (e: unknown) => e instanceof HttpProblem && e.problem.code === 'taken',
    );
  });

  it('verifies the forwarded principal: 401 without one, 401 for a forged one', async () => {
    const principal = { sub: 'u1', token_id: 't1', sites: [{ id: 7, name: 'Acme' }] };
    const gateway = generateKeyPairSync('ed25519');
    const verifier = { publicKey: gateway.publicKey, audience: PRINCIPAL_AUDIENCES.requests };
    const sign = (key: KeyObject) => signPrincipal(key, PRINCIPAL_AUDIENCES.requests, principal);
    assert.deepEqual(await principalOf(verifier, await sign(gateway.privateKey)), principal);
    await assert.rejects(
      principalOf(verifier, undefined),
      (e: unknown) => e instanceof HttpProblem && e.problem.code === 'unauthenticated',
    );
    await assert.rejects(
      principalOf(verifier, await sign(generateKeyPairSync('ed25519').privateKey)),
      (e: unknown) => e instanceof HttpProblem && e.problem.code === 'invalid_principal',
    );
  });
});
