import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import * as t from 'io-ts';
import { db, sql } from '@esign/platform/database';
import { principal, SITE_B, type Harness } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';
import { expectStatus, signingPagesFixture } from '../support/signing-pages-fixture.js';

/** The executed PDF and its audit trail, with the contact details fixed at send. */
describe('requests service: signer pages, signing, declining and the executed document: the executed document', function () {
  const { ctx, create, send, get, open, submit, events, acts } = signingPagesFixture('signing_document');
  let h: Harness;
  let headers: Record<string, string>;
  let htmlTemplate: number;
  let pdfTemplate: number;
  before(() => {
    ({ h, headers, htmlTemplate, pdfTemplate } = ctx);
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
