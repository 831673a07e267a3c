import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import type { Caller } from '../../src/application/caller.js';
import { siteSignerUseCases } from '../../src/application/site-signers.js';
import { SITE } from '../support/builders.js';
import { memorySiteSignerStore } from '../support/memory-site-signer-store.js';

const caller: Caller = { sub: 'u', sites: [SITE] };
const stranger: Caller = { sub: 'v', sites: [{ id: SITE.id + 1, name: 'Other' }] };

/** ADR 3200's rules with the store in memory: the create's upsert, on one signer. */
describe('a Site’s signers (use cases)', () => {
  let tick = 0;
  const setup = () => {
    const memory = memorySiteSignerStore(() => new Date(Date.UTC(2030, 0, 1, 12, 0, tick++)).toISOString());
    return { ...memory, cases: siteSignerUseCases({ signers: memory.store }) };
  };
  const ok = async <A>(run: () => Promise<E.Either<unknown, A>>): Promise<A> => {
    const result = await run();
    if (E.isLeft(result)) assert.fail(`expected success, got ${JSON.stringify(result.left)}`);
    return result.right;
  };

  it('fills what the signer_id reveals, and lets a detail given win over it', async () => {
    const { cases } = setup();
    const byMail = await ok(cases.putSiteSigner(caller, SITE.id, 'Jo@Example.com', {}));
    assert.deepEqual(
      [byMail.created, byMail.view.email, byMail.view.mobile_number],
      [true, 'jo@example.com', null],
    );
    const byPhone = await ok(
      cases.putSiteSigner(caller, SITE.id, '2025550143', { signer: { email: 'p@example.com' } }),
    );
    assert.deepEqual([byPhone.view.email, byPhone.view.mobile_number], ['p@example.com', '12025550143']);
    const overridden = await ok(
      cases.putSiteSigner(caller, SITE.id, 'Jo@Example.com', { signer: { email: 'jo.new@example.com' } }),
    );
    assert.deepEqual([overridden.created, overridden.view.email], [false, 'jo.new@example.com']);
  });

  it('keeps a stored detail the call leaves out, and an unchanged signer keeps its updated_at', async () => {
    const { cases } = setup();
    const first = await ok(
      cases.putSiteSigner(caller, SITE.id, 'c-1', {
        signer: { email: 'a@example.com', mobile_number: '12025550100' },
      }),
    );
    const same = await ok(
      cases.putSiteSigner(caller, SITE.id, 'c-1', { signer: { email: 'a@example.com' } }),
    );
    assert.deepEqual(same, { view: first.view, created: false });
    const moved = await ok(
      cases.putSiteSigner(caller, SITE.id, 'c-1', { signer: { mobile_number: '12025550111' } }),
    );
    assert.deepEqual([moved.view.email, moved.view.mobile_number], ['a@example.com', '12025550111']);
    assert.notEqual(moved.view.updated_at, first.view.updated_at);
    assert.equal(moved.view.created_at, first.view.created_at);
  });

  it('refuses a 10-digit signer_id that is not a US mobile number, naming signer_id, storing nothing', async () => {
    const { cases, rows } = setup();
    const refused = await cases.putSiteSigner(caller, SITE.id, '4165550143', {})();
    assert.ok(E.isLeft(refused) && refused.left._tag === 'InvalidRequest');
    assert.deepEqual(
      refused.left.errors.map((e) => e.path),
      ['signer_id'],
    );
    assert.match(refused.left.errors[0]!.message, /is read as a mobile number and/);
    assert.equal(rows.size, 0);
  });

  it('reads as missing a Site the caller does not reach, and a signer never named', async () => {
    const { cases, rows } = setup();
    await ok(cases.putSiteSigner(caller, SITE.id, 'c-1', {}));
    for (const result of [
      await cases.getSiteSigner(stranger, SITE.id, 'c-1')(),
      await cases.putSiteSigner(stranger, SITE.id, 'c-2', {})(),
      await cases.listSiteSigners(stranger, SITE.id, { page: 1, perPage: 20 })(),
    ])
      assert.deepEqual(result, E.left({ _tag: 'NotFound', resource: 'site' }));
    assert.deepEqual(
      await cases.getSiteSigner(caller, SITE.id, 'c-9')(),
      E.left({ _tag: 'NotFound', resource: 'signer' }),
    );
    assert.equal(rows.size, 1);
  });

  it('lists by signer_id, one page at a time, and searches', async () => {
    const { cases } = setup();
    for (const id of ['b', 'c', 'a']) await ok(cases.putSiteSigner(caller, SITE.id, id, {}));
    const second = await ok(cases.listSiteSigners(caller, SITE.id, { page: 2, perPage: 2 }));
    assert.deepEqual(
      [second.data.map((s) => s.signer_id), second.total_count, second.has_more],
      [['c'], 3, false],
    );
    await ok(cases.putSiteSigner(caller, SITE.id, 'd', { signer: { email: 'Ann@Example.com' } }));
    const searched = await ok(cases.listSiteSigners(caller, SITE.id, { page: 1, perPage: 20 }, 'ANN@'));
    assert.deepEqual(
      searched.data.map((s) => s.signer_id),
      ['d'],
    );
  });

  it('deletes a signer no Request names; one a Request names is kept; a stranger reaches neither', async () => {
    const memory = memorySiteSignerStore(
      () => '2030-01-01T00:00:00.000Z',
      (_site, signerId) => signerId === 'named',
    );
    const cases = siteSignerUseCases({ signers: memory.store });
    for (const id of ['loose', 'named']) await ok(cases.putSiteSigner(caller, SITE.id, id, {}));
    assert.deepEqual(
      await cases.deleteSiteSigner(stranger, SITE.id, 'loose')(),
      E.left({ _tag: 'NotFound', resource: 'site' }),
    );
    assert.deepEqual(
      await cases.deleteSiteSigner(caller, SITE.id, 'named')(),
      E.left({ _tag: 'SignerInUse' }),
    );
    assert.deepEqual(await cases.deleteSiteSigner(caller, SITE.id, 'loose')(), E.right(undefined));
    assert.deepEqual(
      await cases.deleteSiteSigner(caller, SITE.id, 'loose')(),
      E.left({ _tag: 'NotFound', resource: 'signer' }),
    );
    assert.deepEqual(
      [...memory.rows.values()].map((s) => s.signerId),
      ['named'],
    );
  });

  it('removes a detail given as null, but not the one the signer_id is', async () => {
    const { cases } = setup();
    await ok(
      cases.putSiteSigner(caller, SITE.id, 'c-7', {
        signer: { email: 'a@example.com', mobile_number: '12025550100' },
      }),
    );
    const removed = await ok(
      cases.putSiteSigner(caller, SITE.id, 'c-7', { signer: { mobile_number: null } }),
    );
    assert.deepEqual([removed.view.email, removed.view.mobile_number], ['a@example.com', null]);
    const refused = await cases.putSiteSigner(caller, SITE.id, '2025550143', {
      signer: { mobile_number: null },
    })();
    assert.ok(E.isLeft(refused) && refused.left._tag === 'InvalidRequest');
    assert.deepEqual(
      refused.left.errors.map((e) => e.path),
      ['signer.mobile_number'],
    );
    const byMail = await cases.putSiteSigner(caller, SITE.id, 'jo@example.com', {
      signer: { email: null },
    })();
    assert.ok(E.isLeft(byMail) && byMail.left._tag === 'InvalidRequest');
  });
});
