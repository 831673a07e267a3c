import assert from 'node:assert/strict';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { SITE_A, type Harness } from '../support/harness.js';
import { startRequestsApi } from '../support/requests-api-fixture.js';

/**
 * ADR 3400 against real Postgres: a Request's e-mail subject, kept, replaced on a draft,
 * fixed once sent, copied, and carried by the events that ask the signers to sign.
 */
describe('requests service: a Request’s e-mail subject (real Postgres)', () => {
  let h: Harness;
  let html: number;
  let headers: Record<string, string>;
  before(async () => {
    ({ h, html, headers } = await startRequestsApi('request_subject'));
  });
  after(async () => {
    await h.close();
  });

  type Answer = RequestView & { errors?: { path: string; message: string }[]; detail?: string };
  const create = async (body: Record<string, unknown>, status = 201) =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [html],
          signers: [{ signer_id: 'ada@example.com', send_to: { email: true } }],
          fields: ['full_name', 'agree', 'signature'].map((name) => ({
            name,
            assigned_to: 'ada@example.com',
          })),
          ...body,
        })
        .expect(status)
    ).body as Answer;
  const patch = async (id: string, body: Record<string, unknown>, status = 200) =>
    (await h.http.patch(`/v1.1/requests/${id}`).set(headers).send(body).expect(status)).body as Answer;
  const count = async () => Number(await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM requests`));
  const sentData = async (id: string) =>
    (
      await db.one(
        h.pool,
        t.type({ data: t.UnknownRecord }),
        sql.unsafe`SELECT envelope->'data' AS data FROM outbox WHERE type = 'request.sent' AND envelope->>'aggregate_id' = ${id}`,
      )
    ).data;

  it('keeps the subject trimmed, and none as null; refuses a blank, long or multi-line one at subject, writing nothing', async () => {
    const view = await create({ subject: '  Your lease for 4 Quay Street ' });
    assert.equal(view.subject, 'Your lease for 4 Quay Street');
    const read = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200)).body as RequestView;
    assert.equal(read.subject, 'Your lease for 4 Quay Street', 'stored');
    assert.equal((await create({})).subject, null);

    const before = await count();
    for (const [subject, words] of [
      [' ', 'must not be blank'],
      ['x'.repeat(201), 'must be at most 200 characters'],
      ['Lease\r\nBcc: all@example.com', 'must be one line'],
      [7, undefined],
    ] as const) {
      const refused = await create({ subject }, 422);
      assert.deepEqual(
        refused.errors?.map((e) => e.path),
        ['subject'],
        String(subject),
      );
      if (words !== undefined) assert.match(refused.errors?.[0]?.message ?? '', new RegExp(words));
    }
    assert.equal(await count(), before, 'nothing written');
    assert.equal((await create({ subject: 'y'.repeat(200) })).subject?.length, 200, 'the limit itself');
  });

  it('replaces or removes a draft’s subject, told as changed; a sent Request’s is a 409', async () => {
    const draft = await create({ subject: 'First' });
    assert.equal((await patch(draft.id, { subject: 'Second' })).subject, 'Second');
    assert.equal((await patch(draft.id, { subject: 'Second' })).subject, 'Second');
    assert.equal((await patch(draft.id, { subject: null })).subject, null);
    const told = await db.any(
      h.pool,
      t.type({ changed: t.unknown }),
      sql.unsafe`SELECT envelope->'data'->'changed' AS changed FROM outbox
        WHERE type = 'request.updated' AND envelope->>'aggregate_id' = ${draft.id} ORDER BY id`,
    );
    assert.deepEqual(
      told.map((r) => r.changed),
      [['subject'], ['subject']],
      'one event a change; the same text again is none',
    );
    assert.deepEqual(
      (await patch(draft.id, { subject: 'a\nb' }, 422)).errors?.map((e) => e.path),
      ['subject'],
    );

    const sent = await create({ subject: 'Fixed' });
    await h.http.post(`/v1.1/requests/${sent.id}/send`).set(headers).expect(200);
    const refused = await patch(sent.id, { subject: 'Later' }, 409);
    assert.match(refused.detail ?? '', /subject can be changed only while the Request is a draft/);
    assert.equal((await patch(sent.id, { title: 'Still titled' })).subject, 'Fixed', 'other changes keep it');
  });

  it('copies the subject and asks the signers with it; a Request without one says nothing of it', async () => {
    const source = await create({ subject: 'Please sign your lease' });
    const copy = (await h.http.post(`/v1.1/requests/${source.id}/copy`).set(headers).send({}).expect(201))
      .body as RequestView;
    assert.equal(copy.subject, 'Please sign your lease');

    await h.http.post(`/v1.1/requests/${source.id}/send`).set(headers).expect(200);
    assert.equal((await sentData(source.id)).subject, 'Please sign your lease');
    const plain = await create({});
    await h.http.post(`/v1.1/requests/${plain.id}/send`).set(headers).expect(200);
    assert.ok(!('subject' in (await sentData(plain.id))));
  });
});
