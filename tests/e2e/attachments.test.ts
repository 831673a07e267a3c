// Attachment fields (ADR 3920) through the gateway and the typed client, against the whole
// system: declared, the signer's page taking files, each checked, a file kept when the form
// is refused for another reason, the act signed with it, its name read back, the file
// downloaded by the sender, and its name in the executed document.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import {
  clientOf,
  completedPdf,
  completedText,
  ok,
  publishedTemplate,
  unique,
  type ClientOf,
} from './support/flow.js';
import { filledSigningForm, postSignerMultipart, type ChosenFile } from './support/signer.js';
import { conformingFetch } from './support/conformance.js';

/** A PNG as its first bytes show it, and some more. */
const png = (name: string, size = 2048): ChosenFile => {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return { name, type: 'image/png', bytes };
};

describe('end to end through the gateway: attachment fields', function () {
  this.timeout(180_000);
  let system: EsignSystem;
  let acme: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_attachments' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });

  /** A Request of `template` sent to one new e-mail signer of every field: its id and their signing page's address. */
  const sentTo = async (template: number, fields: readonly string[]) => {
    const email = `attach-${unique()}@example.com`;
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: {
          contracts: [template],
          signers: [{ signer_id: email, send_to: { email: true } }],
          fields: fields.map((name) => ({ name, assigned_to: email })),
        },
      }),
      201,
      'create',
    );
    const sent = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'send',
    );
    return { created, url: new URL(sent.signers[0]!.request_url) };
  };

  it('takes a file on the signer’s page, keeps it through a refused form, and gives it to the sender once signed', async () => {
    const fields = [
      { name: 'id_document', type: 'attachment' },
      { name: 'other_document', type: 'attachment', required: false },
      { name: 'signature', type: 'signature' },
    ] as const;
    const template = await publishedTemplate(acme, {
      type: 'html',
      name: `Rental application ${unique()}`,
      html: '<p>Attach a photo of your ID.</p>',
      fields: [...fields],
    });
    assert.deepEqual(template.fields, fields, 'shown as declared');
    const { created, url } = await sentTo(
      template.id,
      fields.map((f) => f.name),
    );
    const path = { request_id: created.id };
    const page = await (await conformingFetch(url.href)).text();
    assert.match(page, /<form class="sign" method="post" action="[^"]*" enctype="multipart\/form-data"/);
    assert.match(page, /<input type="file" id="f-0" name="f0" accept="[^"]*image\/png[^"]*" required/);
    assert.match(page, /A PDF, PNG or JPEG file, at most 10 MB\./);

    const form = filledSigningForm(page, 'Jane Doe');
    const none = await postSignerMultipart(url, '/sign', form, {});
    assert.equal(none.status, 422);
    assert.match(none.page, /Id document: attach a file/);

    const text = { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('not a picture') };
    const wrong = await postSignerMultipart(url, '/sign', form, { f0: text });
    assert.equal(wrong.status, 422);
    assert.match(wrong.page, /Id document: must be a PDF, PNG or JPEG file/);
    const huge = await postSignerMultipart(url, '/sign', form, { f0: png('big.png', 10 * 1024 * 1024 + 1) });
    assert.equal(huge.status, 422);
    assert.match(huge.page, /Id document: must be at most 10 MB/);

    // The file is kept though the form is refused for the consent, and the page says so.
    const id = png('Führerschein ✓.png');
    const noConsent = new URLSearchParams(form);
    noConsent.delete('consent');
    const refused = await postSignerMultipart(url, '/sign', noConsent, { f0: id });
    assert.equal(refused.status, 422);
    assert.match(
      refused.page,
      /Received: Führerschein ✓\.png \(2 KB\)\. Choose another file only to replace it\./,
    );
    assert.match(
      refused.page,
      /<input type="file" id="f-0" name="f0" accept="[^"]*" aria-describedby/,
      'no longer required',
    );

    const signed = await postSignerMultipart(url, '/sign', form, {});
    assert.equal(signed.status, 303, signed.page.slice(0, 500));

    const values = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/field_values', { params: { path } }),
      200,
      'field values',
    );
    assert.deepEqual(
      values.data.filter((f) => f.type === 'attachment').map((f) => [f.name, f.value]),
      [
        ['id_document', 'Führerschein ✓.png'],
        ['other_document', ''],
      ],
    );
    const download = await acme.esign.GET('/v1.1/requests/{request_id}/attachments/{field_name}', {
      params: { path: { ...path, field_name: 'id_document' } },
      parseAs: 'arrayBuffer',
    });
    assert.equal(download.response.status, 200);
    const headers = download.response.headers;
    assert.equal(headers.get('content-type'), 'image/png');
    assert.match(
      headers.get('content-disposition') ?? '',
      /^attachment; filename=".*"; filename\*=UTF-8''F%C3%BChrerschein%20%E2%9C%93\.png$/,
    );
    const bytes = Buffer.from(download.data as ArrayBuffer);
    assert.deepEqual(bytes, Buffer.from(id.bytes));
    assert.equal(headers.get('etag'), `"${createHash('sha256').update(bytes).digest('hex')}"`);
    for (const field of ['other_document', 'signature', 'nothing_like_it']) {
      const missing = await acme.esign.GET('/v1.1/requests/{request_id}/attachments/{field_name}', {
        params: { path: { ...path, field_name: field } },
      });
      assert.equal(missing.response.status, 404, field);
    }

    const executed = await completedText(acme, created.id);
    assert.match(executed, /id_document: Führerschein ✓\.png/, 'named in the executed document');
    // …and carried in it, under the seal (ADR 3920).
    const dir = await mkdtemp(join(tmpdir(), 'e2e-attachments-'));
    try {
      const file = join(dir, 'executed.pdf');
      await writeFile(file, await completedPdf(acme, created.id));
      const run = promisify(execFile);
      assert.match(
        (await run('pdfdetach', ['-list', '-enc', 'UTF-8', file])).stdout,
        /^1 embedded files\n1: Führerschein ✓\.png\n$/,
      );
      await run('pdfdetach', ['-save', '1', '-o', join(dir, 'out.png'), file]);
      assert.deepEqual(await readFile(join(dir, 'out.png')), Buffer.from(id.bytes));
      assert.match((await run('pdfsig', [file])).stdout, /Signature is Valid/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a submission carrying more than 25 MB of files, with a page saying what to do', async () => {
    const template = await publishedTemplate(acme, {
      type: 'html',
      name: `Documents ${unique()}`,
      html: '<p>Attach your documents.</p>',
      fields: [
        { name: 'first', type: 'attachment' },
        { name: 'second', type: 'attachment' },
        { name: 'third', type: 'attachment' },
        { name: 'signature', type: 'signature' },
      ],
    });
    const { url } = await sentTo(template.id, ['first', 'second', 'third', 'signature']);
    const page = await (await conformingFetch(url.href)).text();
    const nine = 9 * 1024 * 1024;
    const tooMuch = await postSignerMultipart(url, '/sign', filledSigningForm(page, 'Jane Doe'), {
      f0: png('a.png', nine),
      f1: png('b.png', nine),
      f2: png('c.png', nine),
    });
    assert.equal(tooMuch.status, 413);
    assert.match(tooMuch.page, /The files are too large/);
    assert.match(tooMuch.page, /send the larger ones one at a time/);
  });
});
