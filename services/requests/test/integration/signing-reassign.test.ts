import assert from 'node:assert/strict';
import { PRINCIPAL_AUDIENCES, type RequestView } from '@esign/contracts';
import { testGatewayKeys } from '@esign/testing';
import { principal, SITE_A } from '../support/harness.js';
import { downloaded } from '../support/executed-documents-fixture.js';
import { pdfText } from '../support/pdf-text.js';
import { formBody, hiddenInputs } from '../support/signer-forms.js';
import { expectStatus, FORM, signingPagesFixture } from '../support/signing-pages-fixture.js';

/**
 * ADR 3560 against real Postgres, through the service's HTTP: the Request's `allow_reassign`,
 * and a signer asking someone else to sign in their place from their page.
 */
describe('requests service: a signer asks someone else to sign in their place (real Postgres)', function () {
  const { ctx, create, get, twoSigners, sentRequest, open, submit, aliceSigns, bobSigns, events } =
    signingPagesFixture('signing_reassign');
  const reassign = (
    view: RequestView,
    email: string | undefined,
    headers: Record<string, string> = {},
    note?: string,
  ) => submit(view, 0, { email, note }, '/sign/reassign', headers);
  /** A Request allowing it, made and sent by a user whose address it records. */
  const sentByOwner = async () => {
    const owner = await principal([SITE_A], 'owner@acme.example');
    const made = await ctx.h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(owner)
      .send(twoSigners({ allow_reassign: true }))
      .expect(201);
    const view = made.body as RequestView;
    await ctx.h.http.post(`/v1.1/requests/${view.id}/send`).set(owner).expect(200);
    return { owner, view };
  };

  it('keeps allow_reassign (false unless given), copies it, and refuses what is not a boolean at its name', async () => {
    assert.equal((await create(twoSigners())).allow_reassign, false);
    const allowed = await create(twoSigners({ allow_reassign: true }));
    assert.equal(allowed.allow_reassign, true);
    assert.equal((await get(allowed.id)).allow_reassign, true, 'stored');
    const copy = await ctx.h.http
      .post(`/v1.1/requests/${allowed.id}/copy`)
      .set(ctx.headers)
      .send({})
      .expect(201);
    assert.equal((copy.body as RequestView).allow_reassign, true, 'a copy allows it too');
    const refused = await ctx.h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(ctx.headers)
      .send(twoSigners({ allow_reassign: 'yes' }))
      .expect(422);
    assert.deepEqual(
      (refused.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['allow_reassign'],
    );
  });

  it('turns it on or off on a sent Request with PATCH, stored and offered from then on', async () => {
    const view = await sentRequest();
    const patch = (body: object) => ctx.h.http.patch(`/v1.1/requests/${view.id}`).set(ctx.headers).send(body);
    const refused = await patch({ allow_reassign: 'yes' }).expect(422);
    assert.deepEqual(
      (refused.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['allow_reassign'],
    );
    assert.equal(
      ((await patch({ allow_reassign: true }).expect(200)).body as RequestView).allow_reassign,
      true,
    );
    assert.equal((await get(view.id)).allow_reassign, true, 'stored');
    assert.match((await open(view, 0).expect(200)).text, /<details class="reassign">/, 'offered now');
    const updated = (await events(view.id)).filter((e) => e.type === 'request.updated');
    assert.deepEqual(
      updated.map((e) => e.data.changed),
      [['allow_reassign']],
    );
    await patch({ allow_reassign: false }).expect(200);
    assert.equal((await get(view.id)).allow_reassign, false);
    assert.doesNotMatch((await open(view, 0).expect(200)).text, /class="reassign"/, 'no longer offered');
  });

  it('offers the form only on a Request that allows it, and refuses a post to one that does not', async () => {
    const plain = await sentRequest();
    const page = await open(plain, 0).expect(200);
    assert.doesNotMatch(page.text, /class="reassign"/);
    const res = await ctx.h.http
      .post('/sign/reassign')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(formBody({ ...hiddenInputs(page.text, '/sign/decline'), email: 'carol@example.com' }))
      .expect(403);
    assert.match(res.text, /You cannot pass this request on/);
    assert.equal((await get(plain.id)).signers[0]!.signer_id, 'alice@example.com', 'nothing changed');

    const allowed = await sentRequest({ allow_reassign: true });
    const offered = await open(allowed, 0).expect(200);
    assert.match(offered.text, /<details class="reassign">\s*<summary>Someone else should sign\?<\/summary>/);
    assert.match(offered.text, /<form method="post" action="\/sign\/reassign"/);

    // In a client's own application (embedded signing, ADR 2300) that application decides who signs.
    const HOST = 'https://app.client.example';
    const framer = {
      'x-esign-principal': await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.requests, {
        sub: 'user-1',
        token_id: 'tok-1',
        sites: [SITE_A],
        frame_origins: [HOST],
      }),
    };
    const made = await ctx.h.http
      .post(`/v1.1/requests/${allowed.id}/signers/alice%40example.com/embedded_url`)
      .set(framer)
      .send({ parent_origin: HOST })
      .expect(200);
    const embeddedUrl = new URL(String((made.body as { embedded_url: string }).embedded_url));
    const first = await ctx.h.http.get(embeddedUrl.pathname + embeddedUrl.search).expect(303);
    const next = new URL(first.headers.location!, 'https://esign.example');
    const framed = await ctx.h.http.get(next.pathname + next.search).expect(200);
    assert.match(framed.text, /action="\/sign\/decline\?embed=/, 'the embedded page');
    assert.doesNotMatch(framed.text, /class="reassign"/);
  });

  it('refuses an address it cannot take beside the field, then puts the person asked in the place', async () => {
    const view = await sentRequest({ allow_reassign: true });
    for (const [email, words] of [
      [' ', /Their e-mail address: enter the e-mail address of the person who should sign/],
      ['carol', /must be an e-mail address, like name@example.com/],
      ['Alice@Example.com', /is your own address/],
      ['bob@example.com', /is already a signer of this request/],
    ] as const) {
      const refused = await expectStatus(reassign(view, email), 422);
      assert.match(refused.text, words);
      assert.match(refused.text, /<details class="reassign" open>/);
      assert.match(refused.text, /id="reassign_email" name="email"[^>]*aria-invalid="true"/);
    }
    assert.equal((await get(view.id)).signers[0]!.signer_id, 'alice@example.com', 'nothing written');

    const done = await expectStatus(reassign(view, ' Carol@Example.com '), 200);
    assert.match(done.text, /You asked someone else to sign/);
    assert.match(done.text, /carol@example.com has been e-mailed a link to sign in your place/);
    const after = await get(view.id);
    assert.deepEqual(
      [after.signers[0]!.signer_id, after.signers[0]!.email, after.signers[0]!.signer_ref],
      ['carol@example.com', 'carol@example.com', view.signers[0]!.signer_ref],
    );
    const types = (await events(view.id)).map((e) => e.type);
    assert.deepEqual(types.slice(-2), ['request.signer_updated', 'request.reminded'], 'no notice to Alice');
    const updated = (await events(view.id)).find((e) => e.type === 'request.signer_updated')!.data;
    assert.equal(updated.corrected_by, 'alice@example.com', 'the history names her as who asked');
    const site = await ctx.h.http
      .get(`/v1.1/sites/${SITE_A.id}/signers/carol%40example.com`)
      .set(ctx.headers)
      .expect(200);
    assert.equal((site.body as { email: string }).email, 'carol@example.com', 'the Site’s signer upserted');
    assert.match((await open(view, 0).expect(410)).text, /You are no longer asked to sign/);
    assert.equal(
      (
        await ctx.h.http.get(
          new URL(after.signers[0]!.request_url).pathname + new URL(after.signers[0]!.request_url).search,
        )
      ).status,
      200,
      'Carol’s link opens',
    );
  });

  it('tells the creating user, when the Request knows their address, who asked whom', async () => {
    const { view } = await sentByOwner();
    await expectStatus(reassign(view, 'dan@example.com'), 200);
    const told = (await events(view.id)).find((e) => e.type === 'notice.reassigned')?.data as {
      signers: { signer_ref: string; email: string; request_url: string }[];
      reassigned_by: string;
      reassigned_to: string;
    };
    assert.deepEqual(
      [told.signers.map((s) => [s.signer_ref, s.email]), told.reassigned_by, told.reassigned_to],
      [[['@sender', 'owner@acme.example']], 'alice@example.com', 'dan@example.com'],
    );
    assert.match(told.signers[0]!.request_url, new RegExp(`/app/requests/${view.id}$`), 'the Request’s page');
  });

  it('carries their note to the new signer’s invitation and the creating user, never to clients (ADR 3630)', async () => {
    const { owner, view } = await sentByOwner();

    const refused = await expectStatus(reassign(view, 'nobody', {}, 'x'.repeat(1001)), 422);
    assert.match(refused.text, /A note for them \(optional\): must be at most 1000 characters/);
    assert.match(refused.text, /Their e-mail address: must be an e-mail address/, 'both problems at once');
    assert.match(
      refused.text,
      /id="reassign_note" name="note"[^>]*aria-invalid="true"[^>]*>x{1001}<\/textarea>/,
    );
    assert.equal((await get(view.id)).signers[0]!.signer_id, 'alice@example.com', 'nothing written');

    const note = ' I am away until March.\r\nPlease sign for the team. ';
    await expectStatus(reassign(view, 'frank@example.com', {}, note), 200);
    const all = await events(view.id);
    const invited = all.find((e) => e.type === 'request.reminded')!.data;
    assert.deepEqual(
      [invited.asked_by, invited.note, invited.readdressed],
      ['alice@example.com', 'I am away until March.\nPlease sign for the team.', true],
    );
    assert.equal(
      all.find((e) => e.type === 'notice.reassigned')!.data.note,
      'I am away until March.\nPlease sign for the team.',
    );
    const history = await ctx.h.http.get(`/v1.1/requests/${view.id}/events`).set(owner).expect(200);
    assert.match(JSON.stringify(history.body), /"request\.reminded"/, 'the invitation is in the history');
    assert.doesNotMatch(JSON.stringify(history.body), /I am away|asked_by/, 'the note is written to Frank');
  });

  it('keeps where the signer asked from in the executed document’s audit trail, as of a signing act', async () => {
    const view = await sentRequest({ allow_reassign: true });
    await expectStatus(reassign(view, 'erin@example.com', { 'User-Agent': 'AliceBrowser/7.1' }), 200);
    const after = await get(view.id);
    await expectStatus(aliceSigns(after, {}, { 'User-Agent': 'ErinBrowser/2.0' }), 303);
    await expectStatus(bobSigns(after), 303);
    const { text } = await pdfText(await downloaded(ctx.h, ctx.headers, view.id));
    const trail = text.replace(/\s+/g, ' ');
    assert.match(
      trail,
      /Signer replaced: \S+ by alice@example\.com Signer: alice@example\.com → erin@example\.com IP address: \S+ User agent: AliceBrowser\/7\.1/,
      trail,
    );
  });
});
