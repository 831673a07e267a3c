import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { hmacUrlSigner } from '../../src/adapters/crypto/hmac-url-signer.js';
import {
  htmlTemplateBody,
  publishedTemplate,
  SIGNING_KEYS,
  SITE_A,
  type Harness,
} from '../support/harness.js';
import { formBody, hiddenInputs, pathOf } from '../support/signer-forms.js';
import { expectStatus, FORM, signingPagesFixture } from '../support/signing-pages-fixture.js';

/** What each signer link shows, every refusal with its status, and reissued or expired links. */
describe('requests service: signer pages, signing, declining and the executed document: the page and its links', function () {
  const { ctx, create, send, get, twoSigners, sentRequest, open, aliceSigns, events, acts } =
    signingPagesFixture('signing_links');
  let h: Harness;
  let headers: Record<string, string>;
  before(() => {
    ({ h, headers } = ctx);
  });

  describe('the page', () => {
    it('shows the contracts with render_data escaped, this signer’s fields, and strict headers', async () => {
      const view = await sentRequest();
      const res = await open(view, 0).expect(200);
      assert.match(res.headers['content-type']!, /^text\/html; charset=utf-8/);
      const csp = res.headers['content-security-policy']!;
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce, csp);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /form-action 'self' https:\/\/client\.example/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['set-cookie'], undefined);

      const page = res.text;
      assert.match(page, /<html lang="en" dir="ltr">/);
      assert.match(page, /<main id="main"/);
      // render_data is text: its markup shows as characters, it never becomes an element.
      assert.match(
        page,
        /<b>&lt;script&gt;alert\((&quot;|")x(&quot;|")\)&lt;\/script&gt; &amp; (&quot;|")Co(&quot;|")<\/b>/,
      );
      assert.ok(!page.includes('<script>alert'));
      // Every script on the page is ours and carries the nonce; the template's is gone.
      const scripts = [...page.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      assert.deepEqual(scripts, [` nonce="${nonce}"`]);
      for (const banned of ['pwned', 'onclick', 'javascript:'])
        assert.ok(!page.includes(banned), `the page has no "${banned}"`);
      assert.ok(page.includes('href="https://acme.example/terms"'));
      // Alice's fields, labelled; Bob's are not hers to fill.
      assert.match(page, /<label class="field" for="f-0">Full name/);
      assert.match(page, /name="f2" value="pro" required checked/);
      assert.ok(!page.includes('name="f4"'));
      assert.match(page, /<label for="consent">/);
      assert.match(page, /Document fingerprint \(SHA-256\): <code>[0-9a-f]{64}<\/code>/);
      // The same document for both signers.
      const bob = await open(view, 1).expect(200);
      assert.equal(hiddenInputs(bob.text).document_sha256, hiddenInputs(page).document_sha256);
    });

    it('HIGH 1: does not open a template stored before admission whose content the page would cut', async () => {
      // Templates made before ADR 1300 were stored as sent; one the allow-list cuts is refused at use.
      const legacy = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: 'Legacy' }));
      await h.pool.query(
        sql.unsafe`UPDATE contract_templates SET html = ${'<p>Terms.</p><img alt="Signer owes $10,000">'} WHERE id = ${legacy}`,
      );
      const view = await sentRequest({
        contracts: [legacy],
        fields: [
          { name: 'full_name', assigned_to: 'alice@example.com' },
          { name: 'agree', assigned_to: 'alice@example.com' },
          { name: 'signature', assigned_to: 'alice@example.com' },
        ],
        signers: [{ signer_id: 'alice@example.com', send_to: { email: true } }],
      });
      const res = await expectStatus(open(view, 0), 409);
      assert.match(res.text, /This document cannot be signed/);
      assert.ok(!res.text.includes('Terms.'));
      assert.ok(!res.text.includes('document_sha256'));
    });

    it('answers every dead or bad link with its own page and status, never the contract', async () => {
      const draft = await create(twoSigners());
      const url = new URL(draft.signers[0]!.request_url);
      const notSent = await open(draft, 0).expect(409);
      assert.match(notSent.text, /not ready yet/);

      const tampered = new URL(url);
      tampered.searchParams.set('s', `${url.searchParams.get('s')}x`);
      const wrong = await h.http.get(pathOf(tampered.toString())).expect(403);
      assert.match(wrong.text, /This link is not valid/);
      const badSig = new URL(url);
      // Another last character: replacing it with the one it already is (1 in 16) changes nothing.
      const signed = url.searchParams.get('signature')!;
      badSig.searchParams.set('signature', `${signed.slice(0, -1)}${signed.endsWith('A') ? 'Q' : 'A'}`);
      await h.http.get(pathOf(badSig.toString())).expect(403);

      const ghost = randomUUID();
      const signature = hmacUrlSigner(SIGNING_KEYS).sign(ghost, 'someone');
      const unknown = await h.http.get(`/sign?r=${ghost}&s=someone&signature=${signature}`).expect(404);
      assert.match(unknown.text, /cannot find/);
      await h.http.get(`/sign?r=${draft.id}`).expect(400);

      await h.http.post(`/v1.1/requests/${draft.id}/cancel`).set(headers).expect(200);
      assert.match((await open(draft, 0).expect(410)).text, /cancelled/);

      const expiring = await create(
        twoSigners({ expires_at: new Date(h.clock.clock.now().getTime() + 3_600_000).toISOString() }),
      );
      await send(expiring.id);
      h.clock.advance(3_601_000);
      try {
        assert.match((await open(expiring, 0).expect(410)).text, /expired/);
      } finally {
        h.clock.advance(-3_601_000);
      }
      for (const res of [notSent, wrong, unknown])
        assert.ok(
          !res.text.includes('Agreement') && !res.text.includes('name="f0"'),
          'no contract on a refusal',
        );
    });
  });

  describe('LOW 8: Execution URL lifetime and per-signer reissue', () => {
    const reissue = (id: string, signerId: string, body: Record<string, unknown> = {}) =>
      h.http
        .post(`/v1.1/requests/${id}/signers/${encodeURIComponent(signerId)}/execution_url`)
        .set(headers)
        .send(body);

    it('LOW 8: a reissued link replaces the old one, which then shows a clear "replaced" page', async () => {
      const view = await sentRequest();
      const old = view.signers[0]!.request_url;
      const res = await reissue(view.id, 'alice@example.com');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const after = res.body as RequestView;
      const fresh = after.signers[0]!.request_url;
      assert.notEqual(fresh, old);
      assert.equal(after.signers[1]!.request_url, view.signers[1]!.request_url, 'only that signer');
      assert.equal((await get(view.id)).signers[0]!.request_url, fresh);

      const replaced = await expectStatus(h.http.get(pathOf(old)), 410);
      assert.match(replaced.text, /This link was replaced/);
      assert.match(replaced.text, /ask the sender for a new link/i);
      assert.ok(!replaced.text.includes('Agreement'), 'no contract on a dead link');
      await expectStatus(h.http.get(pathOf(fresh)), 200);

      // A form loaded from the old link cannot be submitted once it is replaced.
      const view2 = await sentRequest();
      const page = await open(view2, 0).expect(200);
      await reissue(view2.id, 'alice@example.com').expect(200);
      const posted = await h.http
        .post('/sign')
        .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
        .send(
          formBody({
            ...hiddenInputs(page.text, '/sign'),
            f0: 'Alice Example',
            f1: 'on',
            f2: 'basic',
            typed_name: 'Alice Example',
            consent: 'yes',
          }),
        );
      assert.equal(posted.status, 410, posted.text.slice(0, 500));
      assert.equal((await acts(view2.id)).length, 0);
    });

    it('LOW 8: a link expires a lifetime after it was issued, with a page saying to ask the sender', async () => {
      const view = await sentRequest();
      h.clock.advance(30 * 86_400_000 + 1000);
      try {
        const expired = await expectStatus(open(view, 0), 410);
        assert.match(expired.text, /This link has expired/);
        assert.match(expired.text, /Ask the sender for a new link/);
        // The Request is still open: the sender can give the signer a fresh link.
        const fresh = ((await reissue(view.id, 'alice@example.com').expect(200)).body as RequestView)
          .signers[0]!;
        await expectStatus(h.http.get(pathOf(fresh.request_url)), 200);
      } finally {
        h.clock.advance(-(30 * 86_400_000 + 1000));
      }
    });

    it('LOW 8: reissue is for a sent Request and a signer who has not signed; notify sends the new link alone', async () => {
      const draft = await create(twoSigners());
      assert.equal((await reissue(draft.id, 'alice@example.com')).status, 409);
      const view = await sentRequest();
      assert.equal((await reissue(view.id, 'nobody@example.com')).status, 404);
      assert.equal((await reissue(view.id, 'alice@example.com', { notify: 'yes' })).status, 422);
      // bob-42 has no channel chosen: nothing to send him.
      const unreachable = await reissue(view.id, 'bob-42', { notify: true });
      assert.equal(unreachable.status, 409);
      assert.equal((unreachable.body as { code: string }).code, 'nothing_to_remind');

      const before = (await events(view.id)).length;
      const res = await reissue(view.id, 'alice@example.com', { notify: true });
      assert.equal(res.status, 200);
      const fresh = (res.body as RequestView).signers[0]!.request_url;
      const added = (await events(view.id)).slice(before);
      assert.deepEqual(
        added.map((e) => e.type),
        ['request.reminded'],
      );
      const signers = added[0]!.data.signers as { signer_id: string; request_url: string }[];
      assert.deepEqual(
        signers.map((x) => [x.signer_id, x.request_url]),
        [['alice@example.com', fresh]],
      );
      assert.equal((await get(view.id)).remind_count, 0, 'a reissue is not one of the reminders');

      await aliceSigns({
        ...view,
        signers: [{ ...view.signers[0]!, request_url: fresh }, view.signers[1]!],
      }).then((r) => assert.equal(r.status, 303, r.text.slice(0, 500)));
      const signed = await reissue(view.id, 'alice@example.com');
      assert.equal(signed.status, 409);
    });
  });
});
