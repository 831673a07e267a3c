import assert from 'node:assert/strict';
import { left, right } from '../support/builders.js';
import { caller, memoryLifecycle } from '../support/memory-lifecycle.js';

const FIRST = { page: 1, perPage: 20 };

/** ADR 3170 over in-memory ports: what GET /v1.1/requests/:id/events answers. */
describe('requests use cases: a Request’s history (in-memory ports)', () => {
  it('lists the client events of a Request, oldest first, as webhooks carry them', async () => {
    const { cases, create, events } = await memoryLifecycle();
    const view = await create();
    assert.deepEqual(
      right(await cases.listRequestEvents({ caller, requestId: view.id, page: FIRST })()).data,
      [],
    );
    right(await cases.sendRequest({ caller, requestId: view.id })());
    right(await cases.cancelRequest({ caller, requestId: view.id })());
    const history = right(await cases.listRequestEvents({ caller, requestId: view.id, page: FIRST })());
    const written = events(view.id).filter((e) => e.type !== 'request.created');
    assert.deepEqual(
      history.data.map((e) => [e.id, e.type, e.created_at]),
      written.map((e) => [e.id, e.type, e.occurred_at]),
    );
    assert.deepEqual(
      history.data.map((e) => e.type),
      ['request.sent', 'request.cancelled'],
    );
    assert.ok(!JSON.stringify(history).includes('request_url'), 'no Execution URL');
    assert.deepEqual(
      { ...history, data: undefined },
      { page: 1, per_page: 20, count: 2, total_count: 2, has_more: false, data: undefined },
    );
    const second = right(
      await cases.listRequestEvents({ caller, requestId: view.id, page: { page: 1, perPage: 1 } })(),
    );
    assert.deepEqual(
      { ids: second.data.map((e) => e.id), more: second.has_more },
      { ids: [history.data[0]!.id], more: true },
    );
  });

  it('answers not found for a Request of a Site the caller does not reach', async () => {
    const { cases, create } = await memoryLifecycle();
    const view = await create();
    const stranger = { sub: 'v', sites: [{ id: 8, name: 'Globex' }] };
    assert.equal(
      left(await cases.listRequestEvents({ caller: stranger, requestId: view.id, page: FIRST })())._tag,
      'NotFound',
    );
  });
});
