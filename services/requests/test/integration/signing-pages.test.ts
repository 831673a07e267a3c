import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform';
import { hmacUrlSigner } from '../../src/adapters/crypto/hmac-url-signer.js';
import {
  htmlTemplateBody,
  pdfWithFields,
  principal,
  publishedTemplate,
  SIGNING_KEYS,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';
import { formBody, hiddenInputs, pathOf } from '../support/signer-forms.js';

/** Awaits an answer and checks its status, showing the page when it differs. */
const expectStatus = async <R extends { status: number; text: string }>(
  answer: Promise<R>,
  status: number,
) => {
  const res = await answer;
  assert.equal(res.status, status, res.text.slice(0, 2000));
  return res;
};

const FORM = 'application/x-www-form-urlencoded';
const HOSTILE = '<script>alert("x")</script> & "Co"';

/**
 * The signer pages over HTTP against real Postgres: what each link shows, every refusal
 * with its status, signing, declining, repeats, two signers at once, and the executed PDF.
 */
describe('requests service: signer pages, signing, declining and the executed document', function () {
  let h: Harness;
  let headers: Record<string, string>;
  let htmlTemplate: number;
  let pdfTemplate: number;

  const create = async (body: Record<string, unknown>): Promise<RequestView> =>
    (await h.http.post(`/v1.1/sites/${SITE_A.id}/requests`).set(headers).send(body).expect(201))
      .body as RequestView;
  const send = async (id: string) => {
    const res = await h.http.post(`/v1.1/requests/${id}/send`).set(headers);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res;
  };
  const get = async (id: string) =>
    (await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200)).body as RequestView;

  const twoSigners = (overrides: Record<string, unknown> = {}) => ({
    contracts: [htmlTemplate],
    signers: [
      { signer_id: 'alice@example.com', send_to: { email: true } },
      { signer_id: 'bob-42', signer: { email: 'bob@example.com' } },
    ],
    fields: [
      { name: 'full_name', assigned_to: 'alice@example.com' },
      { name: 'agree', assigned_to: 'alice@example.com' },
      { name: 'plan', assigned_to: 'alice@example.com', default_value: 'pro' },
      { name: 'signature', assigned_to: 'alice@example.com' },
      { name: 'witness_name', assigned_to: 'bob-42' },
      { name: 'witness_signature', assigned_to: 'bob-42' },
    ],
    render_data: { client_name: HOSTILE, start_date: '2030-02-01' },
    redirect_url: 'https://client.example/after?ref=abc&request_id=stale',
    ...overrides,
  });

  const sentRequest = async (overrides: Record<string, unknown> = {}) => {
    const view = await create(twoSigners(overrides));
    await send(view.id);
    return view;
  };

  const open = (view: RequestView, signer: number) => h.http.get(pathOf(view.signers[signer]!.request_url));

  /** Opens the signer's page and posts its form with `fields` (a browser's same-origin post). */
  const submit = async (
    view: RequestView,
    signer: number,
    fields: Record<string, string | undefined>,
    action = '/sign',
    extraHeaders: Record<string, string> = {},
  ) => {
    const page = await open(view, signer).expect(200);
    return h.http
      .post(action)
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin', ...extraHeaders })
      .send(formBody({ ...hiddenInputs(page.text, action), ...fields }));
  };

  const aliceSigns = (
    view: RequestView,
    extra: Record<string, string | undefined> = {},
    extraHeaders: Record<string, string> = {},
  ) =>
    submit(
      view,
      0,
      { f0: 'Alice Example', f1: 'on', f2: 'basic', typed_name: 'Alice Example', consent: 'yes', ...extra },
      '/sign',
      extraHeaders,
    );
  const bobSigns = (view: RequestView) =>
    submit(view, 1, { f4: 'Bob Witness', typed_name: 'Bob Witness', consent: 'yes' });

  const events = async (requestId: string) =>
    db.any(
      h.pool,
      t.type({ type: t.string, data: t.UnknownRecord }),
      sql.unsafe`SELECT envelope->>'type' AS type, envelope->'data' AS data FROM outbox
                 WHERE envelope->>'aggregate_id' = ${requestId} ORDER BY seq`,
    );
  const acts = async (requestId: string) =>
    db.any(
      h.pool,
      t.type({ kind: t.string, ip: t.string, user_agent: t.string, document_sha256: t.string }),
      sql.unsafe`SELECT kind, ip, user_agent, document_sha256 FROM signer_acts WHERE request_id = ${requestId}`,
    );

  before(async () => {
    h = await startHarness('signing');
    headers = await principal();
    htmlTemplate = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({
        name: 'Services agreement',
        html: '<h1>Agreement</h1><p>Between <b>{{client_name}}</b> and Acme, from {{start_date}}.</p><p>Terms: <a href="https://acme.example/terms">terms</a>.</p><ul><li>First duty</li><li>Second duty</li></ul>',
        fields: [
          { name: 'full_name', type: 'text', max_length: 40 },
          { name: 'agree', type: 'checkbox' },
          { name: 'plan', type: 'choice', options: ['basic', 'pro'] },
          { name: 'signature', type: 'signature' },
          { name: 'witness_name', type: 'text' },
          { name: 'witness_signature', type: 'signature' },
        ],
      }),
    );
    pdfTemplate = await publishedTemplate(h.http, SITE_A, {
      type: 'pdf',
      name: 'Lease',
      pdf: await pdfWithFields(),
    });
  });
  after(() => h.close());

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

  describe('MEDIUM 4: contact details fixed at send', () => {
    it('MEDIUM 4: a signer upserted with a new e-mail after send changes neither reminders nor the completed audit trail', async () => {
      const signer = `carol-${randomUUID().slice(0, 8)}`;
      const allCarol = ['full_name', 'agree', 'plan', 'signature', 'witness_name', 'witness_signature'].map(
        (name) => ({ name, assigned_to: signer }),
      );
      const view = await create({
        contracts: [htmlTemplate],
        signers: [{ signer_id: signer, signer: { email: 'carol@old.example' }, send_to: { email: true } }],
        fields: allCarol,
        render_data: {},
      });
      await send(view.id);
      // Another Request upserts the site's signer with a new address.
      await create({
        contracts: [htmlTemplate],
        signers: [{ signer_id: signer, signer: { email: 'carol@new.example' } }],
        fields: allCarol,
      });
      assert.equal((await get(view.id)).signers[0]!.email, 'carol@old.example');

      h.clock.advance(2 * 3600 * 1000);
      await h.http.post(`/v1.1/requests/${view.id}/remind`).set(headers).expect(200);
      const reminded = (await events(view.id)).filter((e) => e.type === 'request.reminded');
      assert.equal(reminded.length, 1);
      assert.ok(JSON.stringify(reminded[0]!.data).includes('carol@old.example'));
      assert.ok(!JSON.stringify(reminded[0]!.data).includes('carol@new.example'));

      await expectStatus(
        submit(view, 0, {
          f0: 'Carol Example',
          f1: 'on',
          f2: 'basic',
          f4: 'Carol Witness',
          typed_name: 'Carol Example',
          consent: 'yes',
        }),
        303,
      );
      // And once more, after she signed.
      await create({
        contracts: [htmlTemplate],
        signers: [{ signer_id: signer, signer: { email: 'carol@newer.example' } }],
        fields: allCarol,
      });
      const act = await db.one(
        h.pool,
        t.type({ email: t.union([t.string, t.null]) }),
        sql.unsafe`SELECT email FROM signer_acts WHERE request_id = ${view.id}`,
      );
      assert.equal(act.email, 'carol@old.example');
      const res = await h.http
        .get(`/v1.1/requests/${view.id}/download`)
        .set(headers)
        .buffer(true)
        .expect(200);
      const { text } = await pdfText(new Uint8Array(res.body as Buffer));
      assert.ok(text.includes('carol@old.example'), 'the audit trail names the address it was sent to');
      assert.ok(!text.includes('carol@new'), 'and not one stored later');
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

  describe('the executed document', () => {
    it('is a PDF with the contracts filled, the signatures and the audit trail, for the Request’s site only', async () => {
      const view = await create({
        contracts: [htmlTemplate, pdfTemplate],
        signers: [{ signer_id: 'alice@example.com' }],
        fields: [
          ...['full_name', 'agree', 'plan', 'signature', 'witness_name', 'witness_signature', 'pets'].map(
            (name) => ({ name, assigned_to: 'alice@example.com' }),
          ),
          { name: 'tenant', assigned_to: 'alice@example.com', default_value: 'Alice Tenant' },
          { name: 'term', assigned_to: 'alice@example.com', default_value: '24 months' },
        ],
      });
      await send(view.id);
      const page = await open(view, 0).expect(200);
      // The PDF contract is shown pre-filled through the same signed link.
      const link = /<a href="([^"]+)" target="_blank" rel="noopener">Open “Lease” \(PDF\)/.exec(
        page.text,
      )?.[1];
      assert.ok(link);
      const shown = await h.http.get(link.replace(/&amp;/g, '&')).buffer(true).expect(200);
      assert.equal(shown.headers['content-type'], 'application/pdf');
      const prefilled = await PDFDocument.load(shown.body as Buffer);
      assert.equal(prefilled.getForm().getTextField('tenant').getText(), 'Alice Tenant');

      const fields = [...new Set([...page.text.matchAll(/name="(f\d+)"/g)].map((m) => m[1]))];
      assert.deepEqual(fields.sort(), ['f0', 'f1', 'f2', 'f4', 'f6', 'f7', 'f8'].sort());
      await expectStatus(
        submit(
          view,
          0,
          {
            f0: 'Alice Example',
            f1: 'on',
            f2: 'pro',
            f4: 'Witness Wanda',
            f6: 'Alice Tenant-Smith',
            f7: 'on',
            f8: '12 months',
            typed_name: 'Alice Ëxample',
            consent: 'yes',
          },
          '/sign',
          { 'User-Agent': 'Audit Agent/2.0' },
        ),
        303,
      );
      assert.equal((await get(view.id)).state, 'completed');

      const other = await principal([SITE_B]);
      await h.http.get(`/v1.1/requests/${view.id}/download`).set(other).expect(404);
      await h.http.get(`/v1.1/requests/${view.id}/download`).expect(401);
      const timings: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = process.hrtime.bigint();
        await h.http.get(`/v1.1/requests/${view.id}/download`).set(headers).buffer(true).expect(200);
        timings.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      const median = [...timings].sort((a, b) => a - b)[1]!;
      console.log(
        `      executed PDF (an HTML and a PDF contract): median ${median.toFixed(0)} ms per download`,
      );
      const res = await h.http
        .get(`/v1.1/requests/${view.id}/download`)
        .set(headers)
        .buffer(true)
        .expect(200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.match(res.headers['content-disposition']!, /^attachment; filename="request-.+-executed\.pdf"$/);
      const bytes = new Uint8Array(res.body as Buffer);
      const doc = await PDFDocument.load(bytes);
      assert.equal(doc.getTitle(), 'Executed: Services agreement, Lease');
      // The form is flattened: the one field left is the seal's signature (ADR 2100).
      assert.deepEqual(
        doc
          .getForm()
          .getFields()
          .map((f) => f.constructor.name),
        ['PDFSignature'],
      );
      const { text, pages } = await pdfText(bytes);
      assert.ok(pages.length >= 4, `cover, agreement, lease, audit: ${pages.length} pages`);
      for (const expected of [
        'Alice Example',
        'Witness Wanda',
        'Alice Tenant-Smith',
        '12 months',
        'Alice Ëxample',
        'First duty',
        'Audit trail',
        'Audit Agent/2.0',
        view.id,
      ])
        assert.ok(text.includes(expected), `the PDF says "${expected}"`);
      const [act] = await acts(view.id);
      assert.ok(text.includes(act!.document_sha256), 'the document hash is in the audit trail');
      assert.ok(!text.includes('pwned'), 'no script text in the contract');
    });
  });
});
