import assert from 'node:assert/strict';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { SITE_A, type Harness } from '../support/harness.js';
import { startRequestsApi } from '../support/requests-api-fixture.js';
import { pathOf } from '../support/signer-forms.js';

/**
 * ADR 3380 against real Postgres: a Request's message to its signers, kept, replaced on a
 * draft, copied, carried by the events that ask them to sign, and shown on their page.
 */
describe('requests service: a Request’s message to its signers (real Postgres)', () => {
  let h: Harness;
  let html: number;
  let headers: Record<string, string>;
  before(async () => {
    ({ h, html, headers } = await startRequestsApi('request_message'));
  });
  after(async () => {
    await h.close();
  });

  const MESSAGE = 'Hi Ada,\r\nplease sign before <b>Friday</b>.\n\n— Harbour Lettings';
  const create = async (body: Record<string, unknown>, status = 201) =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({ contracts: [html], signers: [{ signer_id: 'ada@example.com' }], ...body })
        .expect(status)
    ).body as RequestView & { errors?: { path: string; message: string }[] };
  const patch = async (id: string, body: Record<string, unknown>, status = 200) =>
    (await h.http.patch(`/v1.1/requests/${id}`).set(headers).send(body).expect(status))
      .body as RequestView & {
      errors?: { path: string; message: string }[];
    };
  /** Every field of the template assigned to the one signer, so the Request can be sent. */
  const sendable = {
    signers: [{ signer_id: 'ada@example.com', send_to: { email: true } }],
    fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: 'ada@example.com' })),
  };
  const count = async () => Number(await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM requests`));

  it('keeps the message trimmed with its line breaks, and none as null', async () => {
    const view = await create({ message: `  ${MESSAGE}\n ` });
    const expected = 'Hi Ada,\nplease sign before <b>Friday</b>.\n\n— Harbour Lettings';
    assert.equal(view.message, expected);
    const read = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200)).body as RequestView;
    assert.equal(read.message, expected, 'stored');
    assert.equal((await create({})).message, null);
  });

  it('refuses a blank, over-long or control-character message at message, and writes nothing', async () => {
    const before = await count();
    for (const [message, words] of [
      [' \n ', 'must not be blank'],
      ['x'.repeat(2001), 'must be at most 2000 characters'],
      ['bell\u0007', 'must not hold control characters other than line breaks and tabs'],
      [42, undefined],
    ] as const) {
      const refused = await create({ message }, 422);
      assert.deepEqual(
        refused.errors?.map((e) => e.path),
        ['message'],
        String(message),
      );
      if (words !== undefined) assert.match(refused.errors?.[0]?.message ?? '', new RegExp(words));
    }
    assert.equal((await create({ message: 'y'.repeat(2000) })).message?.length, 2000, 'the limit itself');
    assert.equal(await count(), before + 1);
  });

  it('replaces or removes a draft’s message, told as changed; a sent Request’s is a 409', async () => {
    const draft = await create({ message: 'First' });
    assert.equal((await patch(draft.id, { message: 'Second\nline' })).message, 'Second\nline');
    assert.equal(
      (await patch(draft.id, { message: 'Second\nline' })).updated_at,
      (await patch(draft.id, { message: 'Second\nline' })).updated_at,
    );
    const removed = await patch(draft.id, { message: null });
    assert.equal(removed.message, null);
    const told = await db.any(
      h.pool,
      t.type({ changed: t.unknown }),
      sql.unsafe`SELECT envelope->'data'->'changed' AS changed FROM outbox
        WHERE type = 'request.updated' AND envelope->>'aggregate_id' = ${draft.id} ORDER BY id`,
    );
    assert.deepEqual(
      told.map((r) => r.changed),
      [['message'], ['message']],
      'one event a change; the same text again is none',
    );
    assert.deepEqual(
      (await patch(draft.id, { message: '' }, 422)).errors?.map((e) => e.path),
      ['message'],
    );

    const sent = await create({ message: 'Fixed', ...sendable });
    await h.http.post(`/v1.1/requests/${sent.id}/send`).set(headers).expect(200);
    const refused = await h.http
      .patch(`/v1.1/requests/${sent.id}`)
      .set(headers)
      .send({ message: 'Later' })
      .expect(409);
    assert.match(refused.body.detail as string, /message can be changed only while the Request is a draft/);
  });

  it('copies the message, asks the signers with it, and shows it on their page as text', async () => {
    const source = await create({ message: MESSAGE, ...sendable });
    const copy = (await h.http.post(`/v1.1/requests/${source.id}/copy`).set(headers).send({}).expect(201))
      .body as RequestView;
    assert.equal(copy.message, source.message);

    const sent = (await h.http.post(`/v1.1/requests/${source.id}/send`).set(headers).expect(200))
      .body as RequestView;
    const event = await db.one(
      h.pool,
      t.type({ data: t.UnknownRecord }),
      sql.unsafe`SELECT envelope->'data' AS data FROM outbox WHERE type = 'request.sent' AND envelope->>'aggregate_id' = ${sent.id}`,
    );
    assert.equal(event.data.message, source.message);
    // A Request without one says nothing of it.
    const plain = await create(sendable);
    await h.http.post(`/v1.1/requests/${plain.id}/send`).set(headers).expect(200);
    const silent = await db.one(
      h.pool,
      t.type({ data: t.UnknownRecord }),
      sql.unsafe`SELECT envelope->'data' AS data FROM outbox WHERE type = 'request.sent' AND envelope->>'aggregate_id' = ${plain.id}`,
    );
    assert.ok(!('message' in silent.data));

    const page = await h.http.get(pathOf(sent.signers[0]!.request_url)).expect(200);
    assert.ok(page.text.includes('<h2 id="message-title">A message from'), page.text.slice(0, 400));
    assert.ok(
      page.text.includes(
        '<p class="sender-message">Hi Ada,\nplease sign before &lt;b&gt;Friday&lt;/b&gt;.\n\n— Harbour Lettings</p>',
      ),
      'escaped, line breaks kept',
    );
    const without = (await h.http.get(`/v1.1/requests/${plain.id}`).set(headers).expect(200))
      .body as RequestView;
    const plainPage = await h.http.get(pathOf(without.signers[0]!.request_url)).expect(200);
    assert.ok(!plainPage.text.includes('class="sender-message"'));
  });
});
