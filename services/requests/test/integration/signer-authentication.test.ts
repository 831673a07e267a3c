import assert from 'node:assert/strict';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from '../support/harness.js';
import { formBody, hiddenInputs, pathOf } from '../support/signer-forms.js';
import { pdfText } from '../support/pdf-text.js';

const FORM = 'application/x-www-form-urlencoded';
const CODE = 'blue-harbour-42';

/**
 * Signer authentication over HTTP against real Postgres, with the injected clock: an
 * access-code signer is refused with wrong codes, locked after 5 (even for the right
 * code), and signs with the right one once the lock has run out; the audit trail keeps
 * the method and when it passed; the code is kept only as a scrypt hash.
 */
describe('requests service: signer authentication (access code, lock-out, injected clock)', function () {
  this.timeout(60_000);
  let h: Harness;
  let headers: Record<string, string>;
  let template: number;

  before(async () => {
    h = await startHarness('signer_auth');
    headers = await principal([SITE_A]);
    template = await publishedTemplate(h.http);
  });
  after(async () => {
    await h?.close();
  });

  const postCode = (codePage: string, code: string) =>
    h.http
      .post('/sign/verify')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(formBody({ ...hiddenInputs(codePage, '/sign/verify'), code }));

  it('locks after 5 wrong codes for 15 minutes, then signs with the right code; the audit keeps the method', async () => {
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [template],
        signers: [
          { signer_id: 'ada@example.com', authentication: { method: 'access_code', access_code: CODE } },
        ],
        fields: [
          { name: 'full_name', assigned_to: 'ada@example.com' },
          { name: 'agree', assigned_to: 'ada@example.com' },
          { name: 'signature', assigned_to: 'ada@example.com' },
        ],
        render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
      })
      .expect(201);
    const view = created.body as RequestView;
    assert.ok(!created.text.includes(CODE), 'the access code is never answered');
    const stored = await db.one(
      h.pool,
      t.type({ hash: t.string }),
      sql.unsafe`SELECT access_code_hash AS hash FROM signer_challenges WHERE request_id = ${view.id}`,
    );
    assert.match(stored.hash, /^\$scrypt\$ln=\d+,r=\d+,p=\d+\$/);
    assert.ok(!stored.hash.includes(CODE));
    await h.http.post(`/v1.1/requests/${view.id}/send`).set(headers).expect(200);

    const link = pathOf(view.signers[0]!.request_url);
    const codePage = (await h.http.get(link).expect(200)).text;
    assert.match(codePage, /Enter your code/);
    assert.ok(!codePage.includes('Jane Q. Client'));

    for (let i = 1; i <= 4; i++) await postCode(codePage, `wrong-${i}`).expect(422);
    const locked = await postCode(codePage, 'wrong-5').expect(429);
    assert.match(locked.text, /locked until/);
    h.clock.advance(15 * 60_000 - 1000);
    await postCode(codePage, CODE).expect(429);
    h.clock.advance(1000);
    const passed = await postCode(codePage, CODE).expect(303);
    const signingPath = passed.headers.location!;
    assert.match(signingPath, /[?&]auth=/);

    const page = await h.http.get(signingPath).expect(200);
    assert.match(page.text, /Jane Q\. Client/);
    const signForm = hiddenInputs(page.text, '/sign');
    // Without the pass the same form signs nothing: back to the code page.
    const { auth, ...withoutPass } = signForm;
    assert.ok(auth !== undefined);
    const values = { f0: 'Ada Lovelace', f1: 'on', typed_name: 'Ada Lovelace', consent: 'yes' };
    const refused = await h.http
      .post('/sign')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(formBody({ ...withoutPass, ...values }))
      .expect(303);
    assert.ok(!refused.headers.location!.includes('auth='));
    await h.http
      .post('/sign')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(formBody({ ...signForm, ...values }))
      .expect(303);

    const act = await db.one(
      h.pool,
      t.type({ auth_method: t.string, passed: t.boolean }),
      sql.unsafe`SELECT auth_method, auth_passed_at IS NOT NULL AS passed FROM signer_acts WHERE request_id = ${view.id}`,
    );
    assert.deepEqual(act, { auth_method: 'access_code', passed: true });
    const done = (await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200)).body as RequestView;
    assert.equal(done.state, 'completed');
    assert.deepEqual(done.signers[0]!.authentication, { method: 'access_code' });
    const pdf = await h.http
      .get(`/v1.1/requests/${view.id}/download`)
      .set(headers)
      .buffer(true)
      .parse((res, callback) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => callback(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const { text } = await pdfText(new Uint8Array(pdf.body as Buffer));
    assert.ok(text.includes('access code, passed'), `the audit trail names the check: ${text}`);
    assert.ok(text.includes('First opened'), 'and when the link was first opened');
  });
});
