import assert from 'node:assert/strict';
import { LIMITS } from '@esign/contracts';
import { appWith } from '../support/fake-api.js';
import { answers, CREATE, FILLED, post } from '../support/request-new.js';

/** Fields of a fourth signer row, filled. */
const FOURTH = {
  signer_rows: '4',
  signer_id_4: 'dee@example.com',
  email_4: '',
  mobile_4: '',
  notify_email_4: 'true',
};

describe('web: New Request grows a signer row at a time (Add a signer)', () => {
  it('adds an empty row, keeping what was typed and the key, and creates nothing', async () => {
    const app = appWith(answers());
    const page = await post(app, { ...FILLED, add_signer: '1' }).expect(200);
    assert.equal(app.calls.filter((c) => `${c.method} ${c.path}` === CREATE).length, 0, 'nothing created');
    assert.match(page.text, /name="signer_rows" value="4"/);
    assert.match(page.text, /<legend>Signer 4<\/legend>/);
    assert.match(page.text, /id="signer_id_4"[\s\S]*?value=""/);
    assert.match(page.text, /id="signer_id_2"[\s\S]*?value="client-2"/, 'the rows typed stay');
    assert.match(page.text, /name="idempotency_key" value="form-key-0001"/, 'the same Request, still');
    assert.match(page.text, /formaction="\/app\/requests\/new#signer_id_5"/, 'the next one lands on its row');
    assert.match(page.text, /<option value="4"\s*>\s*Signer 4/, 'a field can go to the new row');
    assert.doesNotMatch(page.text, /class="errors"/, 'an unfinished form is not refused');
  });

  it('creates with the fourth row, a field assigned to it, in row order', async () => {
    const app = appWith(answers());
    await post(app, { ...FILLED, ...FOURTH, 'assign:signature': '4' }).expect(303);
    const body = app.calls.find((c) => `${c.method} ${c.path}` === CREATE)?.body as {
      signers: { signer_id: string; order?: number }[];
      fields: { name: string; assigned_to: string }[];
    };
    assert.deepEqual(
      body.signers.map((s) => [s.signer_id, s.order]),
      [
        ['ann@example.com', 1],
        ['client-2', 2],
        ['dee@example.com', 3],
      ],
      'the empty third row is left out',
    );
    assert.deepEqual(body.fields, [{ name: 'signature', assigned_to: 'dee@example.com' }]);
  });

  it('never has fewer rows than a fresh form, nor more than a Request may have signers', async () => {
    const app = appWith(answers());
    for (const rows of ['0', '-5', 'x', '2.5']) {
      const page = await post(app, { ...FILLED, signer_rows: rows, add_signer: '1' }).expect(200);
      assert.match(page.text, /name="signer_rows" value="4"/, rows);
    }
    const most = await post(app, { ...FILLED, signer_rows: '100000', add_signer: '1' }).expect(200);
    assert.match(most.text, new RegExp(`name="signer_rows" value="${LIMITS.signers}"`));
    assert.doesNotMatch(most.text, /name="add_signer"/, 'no Add a signer at the most');
  });
});
