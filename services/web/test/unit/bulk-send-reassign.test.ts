import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith } from '../support/fake-api.js';
import { answers, confirm, COOKIE, GOOD, hidden, preview } from '../support/bulk-send.js';
import { assertOfferedUnticked, box } from '../support/reassign-box.js';

/** The bodies of the bulk sends asked for. */
const bodies = (calls: ReturnType<typeof appWith>['calls']) =>
  calls.filter((c) => c.method === 'POST').map((c) => c.body as Record<string, unknown>);

describe('web: bulk send, signers may ask someone else to sign in their place (ADR 3560)', () => {
  it('offers the box unticked, labelled, with its hint', async () => {
    const page = await request(appWith(answers).callback)
      .get('/app/bulk-sends/new')
      .set('Cookie', COOKIE)
      .expect(200);
    assertOfferedUnticked(page.text);
  });

  it('carries it, ticked, through the preview to the bulk body; unticked, the body has no such key', async () => {
    const { callback, calls } = appWith(answers);
    const page = await preview(callback, { contract_11: 'on', send: 'true', allow_reassign: 'true' }, GOOD);
    assert.equal(page.status, 200);
    assert.match(box(page.text), /value="true" checked aria-describedby/, 'ticked as it was');
    assert.equal(hidden(page.text, 'allow_reassign'), 'true');
    await confirm(callback, page.text).expect(303);
    assert.equal(bodies(calls)[0]?.allow_reassign, true);

    const plain = await preview(callback, { contract_11: 'on', send: 'true' }, GOOD).expect(200);
    assert.doesNotMatch(box(plain.text), /checked/);
    assert.equal(hidden(plain.text, 'allow_reassign'), 'false');
    await confirm(callback, plain.text).expect(303);
    assert.equal('allow_reassign' in bodies(calls)[1]!, false);
  });

  it('shows a refusal of it beside the box, still ticked', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The body is not valid.', {
      allow_reassign: 'is not offered on this Site',
    });
    const { callback } = appWith({ ...answers, 'POST /v1.1/sites/3/bulk_sends': refused });
    const page = await preview(callback, { contract_11: 'on', send: 'true', allow_reassign: 'true' }, GOOD);
    const res = await confirm(callback, page.text).expect(422);
    const shown = box(res.text);
    assert.ok(
      shown.startsWith(
        '<div class="field"> <p class="error" id="allow_reassign-error">is not offered on this Site</p>',
      ),
      shown,
    );
    assert.match(shown, /value="true" checked aria-describedby="allow_reassign-error allow_reassign-hint"/);
    assert.match(res.text, /<a href="#allow_reassign">/);
  });
});
