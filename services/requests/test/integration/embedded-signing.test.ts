import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import { testGatewayKeys } from '@esign/testing';
import {
  countRows,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { formBody } from '../support/signer-forms.js';

const HOST = 'https://portal.client.example';
const STAGING = 'https://staging.client.example';
const FORM = 'application/x-www-form-urlencoded';

/** The principal of a token whose Developer App allows `frameOrigins`. */
const appPrincipal = async (frameOrigins: readonly string[], sites = [SITE_A]) => ({
  'x-esign-principal': await testGatewayKeys.sign(PRINCIPAL_AUDIENCES.requests, {
    sub: 'user-1',
    token_id: 'tok-1',
    sites,
    ...(frameOrigins.length === 0 ? {} : { frame_origins: [...frameOrigins] }),
  }),
});

/** The first form of a page posting to `path`: its action and hidden inputs. */
const formOf = (page: string, path: string): { action: string; fields: Record<string, string> } => {
  const form = [...page.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].find(
    (f) => new URL(f[1]!.replace(/&amp;/g, '&'), 'https://x.example').pathname === path,
  );
  assert.ok(form, `a form posting to ${path}`);
  const fields: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)"[^>]*value="([^"]*)"/g))
    fields[m[1]!] = m[2]!;
  return { action: form[1]!.replace(/&amp;/g, '&'), fields };
};

/**
 * Embedded URLs over HTTP against real Postgres, with the injected clock (ADR 2300): one
 * opening only, dead after 5 minutes, framed by the app's origins and nothing else, for
 * the signer whose turn it is, and the embedded page keeps its frame through the form.
 */
describe('requests service: embedded signing URLs (single use, 5 minutes, frame origins)', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;

  before(async () => {
    h = await startHarness('embedded_signing');
    template = await publishedTemplate(h.http);
  });
  after(async () => {
    await h?.close();
  });

  const sentRequest = async (
    signers: readonly { signer_id: string; order?: number }[],
  ): Promise<RequestView> => {
    const headers = await appPrincipal([HOST]);
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [template],
        signers: signers.map((s) => ({ ...s, send_to: { email: false } })),
        fields: ['full_name', 'agree', 'signature'].map((name) => ({
          name,
          assigned_to: signers[0]!.signer_id,
        })),
        render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
      })
      .expect(201);
    return (await h.http.post(`/v1.1/requests/${created.body.id}/send`).set(headers).expect(200))
      .body as RequestView;
  };

  const askUrl = async (requestId: string, signer: string, origins: readonly string[], body: object = {}) =>
    await h.http
      .post(`/v1.1/requests/${requestId}/signers/${encodeURIComponent(signer)}/embedded_url`)
      .set(await appPrincipal(origins))
      .send(body);

  const pathOf = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

  it('opens once: the first opening continues to the embedded signing page, a second shows "already used"', async () => {
    const request = await sentRequest([{ signer_id: 'ada@example.com' }]);
    const answer = await askUrl(request.id, 'ada@example.com', [HOST, STAGING], { parent_origin: HOST });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.parent_origin, HOST);
    assert.equal(Date.parse(String(answer.body.expires_at)) - h.deps.clock.now().getTime(), 300_000);
    assert.ok(!answer.text.includes('signature='), 'the answer carries no Execution URL');

    const first = await h.http.get(pathOf(String(answer.body.embedded_url))).expect(303);
    const next = new URL(first.headers.location!, 'https://esign.example');
    assert.equal(next.pathname, '/sign');
    const embed = next.searchParams.get('embed')!;
    const page = await h.http.get(`${next.pathname}${next.search}`).expect(200);
    const csp = page.headers['content-security-policy']!;
    assert.match(csp, new RegExp(`frame-ancestors ${HOST} ${STAGING};`));
    assert.equal(page.headers['x-frame-options'], undefined);
    assert.ok(page.text.includes(`window.parent.postMessage(message, origin)`));
    assert.ok(page.text.includes(`"${HOST}"`), 'messages go to the parent origin');
    assert.ok(page.text.includes('"event":"viewed"'));

    const second = await h.http.get(pathOf(String(answer.body.embedded_url))).expect(410);
    assert.ok(second.text.includes('This signing link was already used'));
    assert.ok(second.text.includes('"code":"link_used"'));
    assert.match(
      second.headers['content-security-policy']!,
      new RegExp(`frame-ancestors ${HOST} ${STAGING};`),
    );

    // The form keeps the frame: a problem re-shows the embedded form, a signature ends on
    // the embedded thank-you page (not redirect_url), which tells the host `signed`.
    const { action, fields } = formOf(page.text, '/sign');
    assert.equal(new URL(action, 'https://esign.example').searchParams.get('embed'), embed);
    const post = (extra: Record<string, string>) =>
      h.http
        .post(action)
        .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
        .send(formBody({ ...fields, ...extra }));
    // Another signer's link under this session's `embed`: an ordinary page, not framable.
    const other = await sentRequest([{ signer_id: 'eve@example.com' }]);
    const otherPage = await h.http.get(pathOf(other.signers[0]!.request_url)).expect(200);
    const foreign = await h.http
      .post(action)
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(formBody({ ...formOf(otherPage.text, '/sign').fields, typed_name: '' }))
      .expect(422);
    assert.match(foreign.headers['content-security-policy']!, /frame-ancestors 'none'/);
    assert.ok(!foreign.text.includes('postMessage'));
    const invalid = await post({ typed_name: '' }).expect(422);
    assert.match(
      invalid.headers['content-security-policy']!,
      new RegExp(`frame-ancestors ${HOST} ${STAGING};`),
    );
    const signed = await post({ f0: 'Ada Lovelace', f1: 'on', typed_name: 'Ada Lovelace', consent: 'yes' });
    assert.equal(signed.status, 303, signed.text);
    const done = new URL(signed.headers.location!, 'https://esign.example');
    assert.equal(done.pathname, '/sign/done');
    assert.equal(done.searchParams.get('embed'), embed);
    const thanks = await h.http.get(`${done.pathname}${done.search}`).expect(200);
    assert.ok(thanks.text.includes('"event":"signed"'));
  });

  it('refuses a late opening after 5 minutes, and a new URL can be asked for at once', async () => {
    const request = await sentRequest([{ signer_id: 'bob@example.com' }]);
    const late = await askUrl(request.id, 'bob@example.com', [HOST]);
    assert.equal(late.status, 200, late.text);
    h.clock.advance(300_000);
    const refused = await h.http.get(pathOf(String(late.body.embedded_url))).expect(410);
    assert.ok(refused.text.includes('This signing link has expired'));
    assert.ok(refused.text.includes('"code":"link_expired"'));
    const fresh = await askUrl(request.id, 'bob@example.com', [HOST]);
    assert.equal(fresh.status, 200);
    await h.http.get(pathOf(String(fresh.body.embedded_url))).expect(303);
  });

  it('names parent_origin when the app allows no origin, another one, or several without a choice', async () => {
    const request = await sentRequest([{ signer_id: 'cy@example.com' }]);
    const before = await countRows(h.pool, 'embedded_sessions');
    for (const [origins, body] of [
      [[], {}],
      [[HOST], { parent_origin: 'https://evil.example' }],
      [[HOST, STAGING], {}],
    ] as const) {
      const answer = await askUrl(request.id, 'cy@example.com', origins, body);
      assert.equal(answer.status, 422, answer.text);
      assert.equal(answer.headers['content-type'], 'application/problem+json');
      assert.equal(answer.body.errors[0].path, 'parent_origin');
    }
    const notAnOrigin = await askUrl(request.id, 'cy@example.com', [HOST], { parent_origin: `${HOST}/page` });
    assert.equal(notAnOrigin.status, 422);
    assert.equal(notAnOrigin.body.errors[0].path, 'parent_origin');
    assert.equal(await countRows(h.pool, 'embedded_sessions'), before, 'nothing was written');
  });

  it('is only for a sent Request, a pending signer whose turn it is, on a Site the token reaches', async () => {
    const ordered = await sentRequest([
      { signer_id: 'first@example.com', order: 1 },
      { signer_id: 'second@example.com', order: 2 },
    ]);
    const notYet = await askUrl(ordered.id, 'second@example.com', [HOST]);
    assert.equal(notYet.status, 409);
    assert.equal(notYet.body.code, 'invalid_state');
    assert.match(String(notYet.body.detail), /not the signer's turn/);
    assert.equal((await askUrl(ordered.id, 'nobody@example.com', [HOST])).status, 404);
    const elsewhere = await h.http
      .post(`/v1.1/requests/${ordered.id}/signers/first%40example.com/embedded_url`)
      .set(await appPrincipal([HOST], [SITE_B]))
      .send({});
    assert.equal(elsewhere.status, 404);
    await h.http
      .post(`/v1.1/requests/${ordered.id}/cancel`)
      .set(await appPrincipal([HOST]))
      .expect(200);
    const cancelled = await askUrl(ordered.id, 'first@example.com', [HOST]);
    assert.equal(cancelled.status, 409);
  });

  it('does not open for a signer replaced since it was made (ADR 3550)', async () => {
    const request = await sentRequest([{ signer_id: 'dee@example.com' }]);
    const made = await askUrl(request.id, 'dee@example.com', [HOST]);
    assert.equal(made.status, 200, made.text);
    await h.http
      .post(`/v1.1/requests/${request.id}/signers/dee%40example.com/replace`)
      .set(await appPrincipal([HOST]))
      .send({ signer_id: 'eli@example.com', notify: false })
      .expect(200);
    const refused = await h.http.get(pathOf(String(made.body.embedded_url))).expect(404);
    assert.match(refused.headers['content-security-policy']!, /frame-ancestors 'none'/);
  });

  it('answers an unknown or malformed token with a page, never framable', async () => {
    const unknown = await h.http
      .get('/sign/embedded?t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
      .expect(404);
    assert.match(unknown.headers['content-security-policy']!, /frame-ancestors 'none'/);
    await h.http.get('/sign/embedded').expect(404);
  });
});
