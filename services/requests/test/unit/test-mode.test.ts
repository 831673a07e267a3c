import assert from 'node:assert/strict';
import type { CreateContractBody } from '@esign/contracts';
import { useCases } from '../../src/application/use-cases.js';
import type { Caller } from '../../src/application/caller.js';
import { body, fresh, left, right } from '../support/builders.js';
import { fakeDeps } from '../support/fakes.js';

const SITE = { id: 7, name: 'Acme' };
const caller: Caller = { sub: 'u', sites: [SITE] };
const testOnly: Caller = { ...caller, testModeOnly: true };

const html: CreateContractBody = {
  type: 'html',
  name: 'NDA',
  html: 'Hello',
  fields: [{ name: 'sig', type: 'signature' }],
};

const setup = async () => {
  const fake = fakeDeps();
  const cases = useCases(fake.deps);
  const template = fresh(right(await cases.createTemplate({ caller, siteId: SITE.id, body: html })()));
  right(await cases.publishContract({ caller, templateId: template.id })());
  const create = (who: Caller, testMode: boolean | undefined) =>
    cases.createRequest({
      caller: who,
      siteId: SITE.id,
      body: body({
        contracts: [template.id],
        signers: [{ signer_id: 'ann@example.com', send_to: { email: true } }],
        fields: [{ name: 'sig', assigned_to: 'ann@example.com' }],
        ...(testMode === undefined ? {} : { test_mode: testMode }),
      }),
    })();
  return { ...fake, cases, create };
};

describe('test mode (issue #22): requests use cases', () => {
  it('a test-only token creates test Requests only, and a refused create writes nothing', async () => {
    const { create, memory } = await setup();
    assert.deepEqual(left(await create(testOnly, undefined)), { _tag: 'TestModeOnlyToken', on: 'create' });
    assert.deepEqual(left(await create(testOnly, false)), { _tag: 'TestModeOnlyToken', on: 'create' });
    assert.equal(memory.state().requests.size, 0);
    // The setup's template events (ADR 3350) are there; no Request's.
    assert.deepEqual(
      memory.state().outbox.map((e) => e.type),
      ['contract.created', 'contract.published'],
    );
    const made = fresh(right(await create(testOnly, true)));
    assert.equal(made.test_mode, true);
    assert.equal(fresh(right(await create(caller, undefined))).test_mode, false, 'real by default');
  });

  it("marks every event of a test Request, and sends a real one's unmarked", async () => {
    const { create, cases, memory } = await setup();
    const test = fresh(right(await create(caller, true)));
    right(await cases.sendRequest({ caller, requestId: test.id })());
    const real = fresh(right(await create(caller, false)));
    right(await cases.sendRequest({ caller, requestId: real.id })());
    const marks = memory
      .state()
      .outbox.map((e) => [e.type, e.aggregate_id === test.id ? 'test' : 'real', e.test_mode ?? null]);
    assert.deepEqual(marks, [
      // A template is no Request's, test or real: its events are never marked (ADR 3350).
      ['contract.created', 'real', null],
      ['contract.published', 'real', null],
      ['request.created', 'test', true],
      ['request.sent', 'test', true],
      ['request.created', 'real', null],
      ['request.sent', 'real', null],
    ]);
  });

  it('a test-only token acts on test Requests only: a real one is neither sent nor cancelled through it', async () => {
    const { create, cases, memory } = await setup();
    const real = fresh(right(await create(caller, false)));
    const before = memory.state().outbox.length;
    for (const action of [cases.sendRequest, cases.cancelRequest])
      assert.deepEqual(left(await action({ caller: testOnly, requestId: real.id })()), {
        _tag: 'TestModeOnlyToken',
        on: 'real_request',
      });
    assert.equal(memory.state().outbox.length, before, 'nothing was written');
    const test = fresh(right(await create(testOnly, true)));
    assert.equal(
      fresh(right(await cases.sendRequest({ caller: testOnly, requestId: test.id })())).state,
      'sent',
    );
  });

  it('lists test Requests, real ones, or both', async () => {
    const { create, cases } = await setup();
    const test = fresh(right(await create(caller, true)));
    const real = fresh(right(await create(caller, false)));
    const ids = async (testMode: boolean | undefined) =>
      right(
        await cases.listRequests({
          caller,
          siteId: SITE.id,
          page: { page: 1, perPage: 10 },
          filter: { testMode },
        })(),
      ).data.map((r) => r.id);
    assert.deepEqual(await ids(true), [test.id]);
    assert.deepEqual(await ids(false), [real.id]);
    assert.deepEqual((await ids(undefined)).sort(), [test.id, real.id].sort());
  });
});
