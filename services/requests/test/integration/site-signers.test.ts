import assert from 'node:assert/strict';
import type { RequestView, SiteSignerList, SiteSignerView } from '@esign/contracts';
import {
  countRows,
  oneSignerRequestBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3200 over HTTP against real Postgres: a Site's signers listed, read and upserted on
 * their own, by the create's rule; a draft follows the record, a sent Request does not.
 */
describe('requests service: a Site’s signers (list, read, upsert; real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('site-signers');
    template = await publishedTemplate(h.http);
    headers = await principal([SITE_A]);
  });
  after(async () => {
    await h?.close();
  });

  const path = (signerId: string, site = SITE_A.id) =>
    `/v1.1/sites/${site}/signers/${encodeURIComponent(signerId)}`;
  const put = (signerId: string, body?: unknown, site = SITE_A.id) => {
    const call = h.http.put(path(signerId, site)).set(headers);
    return body === undefined ? call : call.send(body as object);
  };
  const draftFor = async (signerId: string): Promise<RequestView> =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send(oneSignerRequestBody(template, signerId))
        .expect(201)
    ).body as RequestView;
  const emailOn = async (requestId: string): Promise<string | null | undefined> => {
    const view = (await h.http.get(`/v1.1/requests/${requestId}`).set(headers).expect(200))
      .body as RequestView;
    return view.signers[0]?.email;
  };

  it('creates a signer (201, with what its signer_id reveals), then answers the same details unchanged (200)', async () => {
    const created = await put('2025550143', { signer: { email: 'Pat@Example.com' } }).expect(201);
    const view = created.body as SiteSignerView;
    assert.equal(view.signer_id, '2025550143');
    assert.deepEqual([view.email, view.mobile_number], ['pat@example.com', '12025550143']);
    assert.equal(created.headers.location, path('2025550143'));
    assert.equal(view.created_at, view.updated_at);

    const again = await put('2025550143', { signer: { email: 'pat@example.com' } }).expect(200);
    assert.deepEqual(again.body, view, 'an unchanged record is not rewritten');
    const read = await h.http.get(path('2025550143')).set(headers).expect(200);
    assert.deepEqual(read.body, view);
  });

  it('keeps a detail the call leaves out, changes the one it gives, and removes one given as null', async () => {
    await put('client-9', { signer: { email: 'old@example.com', mobile_number: '12025550100' } }).expect(201);
    const changed = (await put('client-9', { signer: { email: 'new@example.com' } }).expect(200))
      .body as SiteSignerView;
    assert.deepEqual([changed.email, changed.mobile_number], ['new@example.com', '12025550100']);
    assert.ok(changed.updated_at > changed.created_at);
    const bare = (await put('client-9').expect(200)).body as SiteSignerView;
    assert.deepEqual(bare, changed, 'no body changes nothing');
    // null removes a detail (a number that reaches someone else); the same again changes nothing.
    const removed = (await put('client-9', { signer: { mobile_number: null } }).expect(200))
      .body as SiteSignerView;
    assert.deepEqual([removed.email, removed.mobile_number], ['new@example.com', null]);
    assert.deepEqual((await put('client-9', { signer: { mobile_number: null } }).expect(200)).body, removed);
  });

  it('moves every draft naming the signer to the new address, and leaves a sent Request on the old one', async () => {
    await put('client-10', { signer: { email: 'first@example.com' } }).expect(201);
    const sent = await draftFor('client-10');
    await h.http.post(`/v1.1/requests/${sent.id}/send`).set(headers).expect(200);
    const draft = await draftFor('client-10');
    assert.equal(await emailOn(draft.id), 'first@example.com');

    const patched = await h.http
      .patch(`/v1.1/requests/${draft.id}/signers/client-10`)
      .set(headers)
      .send({ signer: { email: 'second@example.com' } })
      .expect(409);
    assert.match((patched.body as { detail: string }).detail, /PUT \/v1\.1\/sites\/:id\/signers\/:signer_id/);
    await put('client-10', { signer: { email: 'second@example.com' } }).expect(200);
    assert.equal(await emailOn(draft.id), 'second@example.com');
    assert.equal(await emailOn(sent.id), 'first@example.com');
  });

  it('refuses what a create would refuse, naming it, and writes nothing', async () => {
    const before = await countRows(h.pool, 'signers');
    const cases: [string, unknown, string][] = [
      ['client-11', { signer: { email: 'not an address' } }, 'signer.email'],
      ['client-11', { signer: { mobile_number: '555' } }, 'signer.mobile_number'],
      ['client-11', { signer: { email: 'a@example.com' }, send_to: { email: true } }, 'send_to'],
      ['client-11', { signer: { fax: '1' } }, 'signer.fax'],
      // The signer_id is this address: removing it would not stick.
      ['ann.refused@example.com', { signer: { email: null } }, 'signer.email'],
      // 10 digits are read as a mobile number: a Canadian one cannot be texted (issue #18).
      ['4165550143', {}, 'signer_id'],
      ['x'.repeat(256), {}, 'signer_id'],
    ];
    for (const [signerId, body, field] of cases) {
      const answer = await put(signerId, body);
      assert.equal(answer.status, 422, `${field}: ${answer.text}`);
      assert.equal(answer.headers['content-type'], 'application/problem+json');
      const errors = (answer.body as { errors: { path: string }[] }).errors.map((e) => e.path);
      assert.ok(errors.includes(field), `${field} named in ${JSON.stringify(errors)}`);
    }
    assert.equal(await countRows(h.pool, 'signers'), before);
  });

  it('reads another Site’s signers as missing, and a signer never named as missing', async () => {
    await put('shared-id', { signer: { email: 'a@example.com' } }).expect(201);
    const other = await principal([SITE_B]);
    await h.http.get(path('shared-id')).set(other).expect(404);
    await h.http
      .put(path('shared-id'))
      .set(other)
      .send({ signer: { email: 'b@example.com' } })
      .expect(404);
    await h.http.get(`/v1.1/sites/${SITE_A.id}/signers`).set(other).expect(404);
    const missing = await h.http.get(path('never-named')).set(headers).expect(404);
    assert.equal((missing.body as { detail: string }).detail, 'No such signer.');
    assert.equal(
      ((await h.http.get(path('shared-id')).set(headers).expect(200)).body as SiteSignerView).email,
      'a@example.com',
    );
  });

  it('lists the Site’s signers by signer_id, a page at a time, including those a create named', async () => {
    await draftFor('zz-created-by-a-request@example.com');
    const first = (await h.http.get(`/v1.1/sites/${SITE_A.id}/signers?per_page=2`).set(headers).expect(200))
      .body as SiteSignerList;
    const all = (await h.http.get(`/v1.1/sites/${SITE_A.id}/signers?per_page=100`).set(headers).expect(200))
      .body as SiteSignerList;
    assert.equal(first.count, 2);
    assert.equal(first.has_more, true);
    assert.equal(all.total_count, all.data.length);
    const ids = all.data.map((s) => s.signer_id);
    assert.deepEqual(
      first.data.map((s) => s.signer_id),
      ids.slice(0, 2),
    );
    assert.deepEqual([...ids].sort(), ids);
    const named = all.data.find((s) => s.signer_id === 'zz-created-by-a-request@example.com');
    assert.deepEqual([named?.email, named?.mobile_number], ['zz-created-by-a-request@example.com', null]);

    const bad = await h.http
      .get(`/v1.1/sites/${SITE_A.id}/signers?per_page=0&q=&x=1`)
      .set(headers)
      .expect(400);
    const paths = (bad.body as { errors: { path: string }[] }).errors.map((e) => e.path).sort();
    assert.deepEqual(paths, ['per_page', 'q', 'x']);
  });

  it('searches the signer_id, address and number for a text, in any case, with % and _ as plain characters', async () => {
    await put('Search-Case_1', {
      signer: { email: 'Robin.Hood@Sherwood.example', mobile_number: '12025550177' },
    }).expect(201);
    await put('search-other', { signer: { email: 'little.john@sherwood.example' } }).expect(201);
    const found = async (q: string) =>
      (
        (
          await h.http
            .get(`/v1.1/sites/${SITE_A.id}/signers?q=${encodeURIComponent(q)}`)
            .set(headers)
            .expect(200)
        ).body as SiteSignerList
      ).data.map((s) => s.signer_id);
    assert.deepEqual(await found('robin.HOOD'), ['Search-Case_1']);
    assert.deepEqual(await found('SEARCH-case'), ['Search-Case_1']);
    assert.deepEqual(await found('5550177'), ['Search-Case_1']);
    assert.deepEqual(await found('sherwood'), ['Search-Case_1', 'search-other']);
    assert.deepEqual(await found('Case_1'), ['Search-Case_1']);
    assert.deepEqual(await found('e_j'), [], '_ is not a wildcard (little.john)');
    assert.deepEqual(await found('%'), [], '% is not a wildcard');
    const counted = (
      await h.http.get(`/v1.1/sites/${SITE_A.id}/signers?q=sherwood&per_page=1`).set(headers).expect(200)
    ).body as SiteSignerList;
    assert.deepEqual([counted.count, counted.total_count, counted.has_more], [1, 2, true]);
  });

  it('lists the Requests naming a signer, with the other filters', async () => {
    const [a1, a2] = [await draftFor('client-30'), await draftFor('client-30')];
    const other = await draftFor('client-31');
    await h.http.post(`/v1.1/requests/${a2.id}/send`).set(headers).expect(200);
    const ids = async (query: string) =>
      (
        (await h.http.get(`/v1.1/sites/${SITE_A.id}/requests?${query}`).set(headers).expect(200)).body as {
          data: { id: string }[];
        }
      ).data.map((r) => r.id);
    // Two creates may share a millisecond, so their order is not asserted here.
    assert.deepEqual((await ids('signer_id=client-30')).sort(), [a1.id, a2.id].sort());
    assert.deepEqual(await ids('signer_id=client-30&state=draft'), [a1.id]);
    assert.deepEqual(await ids('signer_id=client-31'), [other.id]);
    assert.deepEqual(await ids('signer_id=CLIENT-30'), [], 'the exact signer_id');
    const other_site = await principal([SITE_B]);
    await h.http.get(`/v1.1/sites/${SITE_B.id}/requests?signer_id=client-30`).set(other_site).expect(200);
    assert.deepEqual(
      (
        (await h.http.get(`/v1.1/sites/${SITE_B.id}/requests?signer_id=client-30`).set(other_site)).body as {
          data: unknown[];
        }
      ).data,
      [],
      'another Site’s signer of the same id is another signer',
    );
    for (const query of ['signer_id=', 'signer_id=a&signer_id=b']) {
      const refused = await h.http.get(`/v1.1/sites/${SITE_A.id}/requests?${query}`).set(headers).expect(400);
      assert.deepEqual(
        (refused.body as { errors: { path: string }[] }).errors.map((e) => e.path),
        ['signer_id'],
      );
    }
  });

  it('changes a draft signer’s channels on the Request, told in its history, and sends it with them', async () => {
    await put('client-40', { signer: { email: 'dee@example.com', mobile_number: '12025550140' } }).expect(
      201,
    );
    const draft = await draftFor('client-40');
    const patch = (body: unknown) =>
      h.http
        .patch(`/v1.1/requests/${draft.id}/signers/client-40`)
        .set(headers)
        .send(body as object);
    const changed = (await patch({ send_to: { email: false, mobile_number: true } }).expect(200))
      .body as RequestView;
    assert.equal(changed.state, 'draft');
    assert.deepEqual(changed.signers[0]?.send_to, { email: false, mobile_number: true });
    const history = (await h.http.get(`/v1.1/requests/${draft.id}/events`).set(headers).expect(200)).body as {
      data: { type: string; data: { send_to: unknown; previous: { send_to: unknown } } }[];
    };
    assert.deepEqual(
      history.data.map((e) => [e.type, e.data.send_to, e.data.previous.send_to]),
      [
        [
          'request.signer_updated',
          { email: false, mobile_number: true },
          { email: true, mobile_number: false },
        ],
      ],
    );
    // The same channels again change nothing; an address is still the Site's to change.
    await patch({ send_to: { mobile_number: true } }).expect(200);
    await patch({ signer: { email: 'x@example.com' }, send_to: { email: true } }).expect(409);
    const sent = (await h.http.post(`/v1.1/requests/${draft.id}/send`).set(headers).expect(200))
      .body as RequestView;
    assert.deepEqual(sent.signers[0]?.send_to, { email: false, mobile_number: true });
    const after = (await h.http.get(`/v1.1/requests/${draft.id}/events`).set(headers).expect(200)).body as {
      data: { type: string }[];
    };
    assert.deepEqual(
      after.data.map((e) => e.type),
      ['request.signer_updated', 'request.sent'],
    );
  });

  it('deletes a signer no Request names, and keeps one a Request names (signer_in_use)', async () => {
    await put('client-50', { signer: { email: 'typo@exmaple.com' } }).expect(201);
    await put('client-51', { signer: { email: 'eve@example.com' } }).expect(201);
    await draftFor('client-51');
    const remove = (signerId: string, who = headers) => h.http.delete(path(signerId)).set(who);
    await remove('client-50').expect(204);
    await h.http.get(path('client-50')).set(headers).expect(404);
    await remove('client-50').expect(404);
    const kept = await remove('client-51').expect(409);
    assert.equal((kept.body as { code: string }).code, 'signer_in_use');
    await h.http.get(path('client-51')).set(headers).expect(200);
    await remove('client-51', await principal([SITE_B])).expect(404);
    // A new create of the same id makes it again.
    await put('client-50', { signer: { email: 'right@example.com' } }).expect(201);
  });
});
