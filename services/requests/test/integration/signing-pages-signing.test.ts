import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import { formBody, hiddenInputs } from '../support/signer-forms.js';
import { expectStatus, FORM, signingPagesFixture } from '../support/signing-pages-fixture.js';

/** Signing and declining on the signer page: refusals, repeats, two signers at once. */
describe('requests service: signer pages, signing, declining and the executed document: signing and declining', function () {
  const { ctx, get, sentRequest, open, submit, aliceSigns, bobSigns, events, acts } =
    signingPagesFixture('signing_sign');
  let h: Harness;
  let headers: Record<string, string>;
  before(() => {
    ({ h, headers } = ctx);
  });

  describe('signing', () => {
    it('refuses an incomplete form naming every problem, and records nothing', async () => {
      const view = await sentRequest();
      const res = await expectStatus(
        aliceSigns(view, { f0: '', f2: 'platinum', typed_name: '  ', consent: undefined }),
        422,
      );
      assert.match(res.text, /role="alert"/);
      assert.match(res.text, /Full name: is required/);
      assert.match(res.text, /Plan: choose one of the options shown/);
      assert.match(res.text, /Your name: type your full name to sign/);
      assert.match(res.text, /Consent: tick the box/);
      assert.match(res.text, /id="f-0" name="f0" value="" maxlength="40" required aria-invalid="true"/);
      const tooLong = await expectStatus(aliceSigns(view, { f0: 'x'.repeat(41) }), 422);
      assert.match(tooLong.text, /must be at most 40 characters/);
      assert.deepEqual(await acts(view.id), []);
      assert.equal((await get(view.id)).signers[0]!.state, 'pending');
    });

    it('refuses forms it did not issue, and posts from other sites', async () => {
      const view = await sentRequest();
      await expectStatus(aliceSigns(view, { form_token: 'k2.123.xyz' }), 403);
      const crossSite = await expectStatus(aliceSigns(view, {}, { 'Sec-Fetch-Site': 'cross-site' }), 403);
      assert.match(crossSite.text, /another site/);
      await expectStatus(aliceSigns(view, {}, { Origin: 'https://evil.example' }), 403);
      const json = await h.http.post('/sign').set('Content-Type', 'application/json').send('{}').expect(415);
      assert.match(json.headers['content-type']!, /text\/html/);
      assert.deepEqual(await acts(view.id), []);
    });

    it('signs, redirects with the ids, completes once on the last signature, and a repeat changes nothing', async () => {
      const view = await sentRequest();
      const first = await aliceSigns(
        view,
        {},
        { 'X-Forwarded-For': '203.0.113.9', 'User-Agent': 'Test Browser/1.0' },
      );
      assert.equal(first.status, 303);
      const target = new URL(first.headers.location!);
      assert.equal(target.origin + target.pathname, 'https://client.example/after');
      assert.equal(target.searchParams.get('ref'), 'abc');
      assert.equal(target.searchParams.get('request_id'), view.id);
      assert.equal(target.searchParams.get('signer_id'), 'alice@example.com');
      assert.equal(target.searchParams.get('status'), 'signed');

      let current = await get(view.id);
      assert.equal(current.state, 'sent');
      assert.equal(current.signers[0]!.state, 'signed');
      assert.deepEqual(
        (await events(view.id)).map((e) => e.type),
        ['request.created', 'request.sent', 'request.viewed', 'request.signed'],
      );
      assert.ok(current.signers[0]!.viewed_at !== null, 'opening the link marked the signer viewed');
      const [act] = await acts(view.id);
      assert.equal(act!.ip, '203.0.113.9');
      assert.equal(act!.user_agent, 'Test Browser/1.0');

      // A second submission (double click, back button) lands in the same place, adds nothing.
      const page = await open(view, 0).expect(200);
      assert.match(page.text, /You have already signed/);
      const again = await h.http
        .post('/sign')
        .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
        .send(
          formBody({
            r: view.id,
            ...Object.fromEntries(new URL(view.signers[0]!.request_url).searchParams),
            typed_name: 'X',
          }),
        )
        .expect(303);
      assert.equal(again.headers.location, first.headers.location);
      await h.http.get(`/v1.1/requests/${view.id}/download`).set(headers).expect(409);

      await expectStatus(bobSigns(view), 303);
      current = await get(view.id);
      assert.equal(current.state, 'completed');
      assert.ok(current.completed_at !== null);
      const types = (await events(view.id)).map((e) => e.type);
      assert.deepEqual(types.filter((type) => type !== 'request.viewed').slice(2), [
        'request.signed',
        'request.signed',
        'request.completed',
        'notice.completed',
      ]);
      assert.equal(types.filter((type) => type === 'request.viewed').length, 2, 'each signer viewed once');
      assert.match((await open(view, 1).expect(410)).text, /This document is complete/);
    });

    it('counts two signers signing at the same moment, and completes exactly once', async () => {
      const view = await sentRequest();
      const pages = await Promise.all([open(view, 0).expect(200), open(view, 1).expect(200)]);
      const post = (i: number, fields: Record<string, string>) =>
        h.http
          .post('/sign')
          .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
          .send(formBody({ ...hiddenInputs(pages[i]!.text), ...fields }));
      const [a, b] = await Promise.all([
        post(0, { f0: 'Alice', f1: 'on', f2: 'pro', typed_name: 'Alice', consent: 'yes' }),
        post(1, { f4: 'Bob', typed_name: 'Bob', consent: 'yes' }),
      ]);
      assert.equal(a.status, 303);
      assert.equal(b.status, 303);
      const current = await get(view.id);
      assert.equal(current.state, 'completed');
      assert.deepEqual(
        current.signers.map((s) => s.state),
        ['signed', 'signed'],
      );
      const types = (await events(view.id)).map((e) => e.type);
      assert.equal(types.filter((x) => x === 'request.signed').length, 2);
      assert.equal(types.filter((x) => x === 'request.completed').length, 1);
    });

    it('goes to the thank-you page when there is no redirect_url', async () => {
      const view = await sentRequest({ redirect_url: undefined });
      const res = await expectStatus(aliceSigns(view), 303);
      assert.match(res.headers.location!, /^\/sign\/done\?r=/);
      const done = await h.http.get(res.headers.location!).expect(200);
      assert.match(done.text, /Thank you: you have signed/);
    });
  });

  describe('declining', () => {
    it('asks for a reason, then declines the Request for everyone', async () => {
      const view = await sentRequest();
      const empty = await expectStatus(submit(view, 1, { reason: '   ' }, '/sign/decline'), 422);
      assert.match(empty.text, /Reason: tell the sender why you decline/);
      assert.match(empty.text, /<details class="decline" open>/);
      const res = await expectStatus(submit(view, 1, { reason: 'Wrong company name' }, '/sign/decline'), 303);
      const target = new URL(res.headers.location!);
      assert.equal(target.searchParams.get('status'), 'declined');
      assert.equal(target.searchParams.get('signer_id'), 'bob-42');
      const current = await get(view.id);
      assert.equal(current.state, 'declined');
      assert.equal(current.signers[1]!.state, 'declined');
      const declined = (await events(view.id)).find((e) => e.type === 'request.declined');
      assert.deepEqual(declined?.data, {
        request_id: view.id,
        signer_id: 'bob-42',
        signer_ref: view.signers[1]!.signer_ref,
        reason: 'Wrong company name',
      });
      assert.match((await open(view, 0).expect(410)).text, /This request was declined/);
      assert.match((await open(view, 1).expect(410)).text, /You declined to sign/);
    });

    it('does not let a signer who signed decline afterwards', async () => {
      const view = await sentRequest();
      const page = await open(view, 0).expect(200);
      await expectStatus(aliceSigns(view), 303);
      const res = await h.http
        .post('/sign/decline')
        .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
        .send(formBody({ ...hiddenInputs(page.text, '/sign/decline'), reason: 'Changed my mind' }))
        .expect(409);
      assert.match(res.text, /already signed/);
      assert.equal((await get(view.id)).state, 'sent');
    });
  });
});
