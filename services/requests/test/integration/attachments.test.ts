import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { sql } from '@esign/platform/database';
import { pathOf, postSigned } from '../support/signer-forms.js';
import { purgeUnsignedAttachments } from '../../src/adapters/postgres/maintenance.js';
import {
  countRows,
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PDF = Buffer.from('%PDF-1.7\n%%EOF\n');

/**
 * A Request of a new published template with `fields`, sent to one e-mail signer of them
 * all: its id, and the signer's Execution URL and reference.
 */
const sentRequest = async (h: Harness, fields: readonly Record<string, unknown>[], signer: string) => {
  const headers = await principal();
  const template = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ fields }));
  const created = await h.http
    .post(`/v1.1/sites/${SITE_A.id}/requests`)
    .set(headers)
    .send({
      contracts: [template],
      signers: [{ signer_id: signer, send_to: { email: true } }],
      fields: fields.map((f) => ({ name: f.name, assigned_to: signer })),
    })
    .expect(201);
  const id = created.body.id as string;
  const sent = await h.http.post(`/v1.1/requests/${id}/send`).set(headers).expect(200);
  const url = (sent.body as { signers: { request_url: string }[] }).signers[0]!.request_url;
  return { id, url, ref: new URL(url).searchParams.get('s')! };
};

/**
 * ADR 3920 against real Postgres: the store of the files signers upload (one per signer and
 * field, a later one replacing it, its SHA-256 computed by Postgres), and the API's download
 * refusing a file nobody signed with.
 */
describe('requests service: signers’ attachments (real Postgres)', function () {
  let h: Harness;
  let requestId: string;
  let signerRef: string;

  before(async () => {
    h = await startHarness('attachments');
    const sent = await sentRequest(
      h,
      [
        { name: 'id_document', type: 'attachment' },
        { name: 'signature', type: 'signature' },
      ],
      'signer@example.com',
    );
    requestId = sent.id;
    signerRef = sent.ref;
  });
  after(() => h.close());

  const store = () => h.deps.store.attachments;
  const run = async <A>(task: () => Promise<E.Either<never, A>>): Promise<A> => {
    const result = await task();
    assert.ok(E.isRight(result));
    return result.right;
  };

  it('keeps one file per signer and field, a later one replacing it, with its SHA-256 and size', async () => {
    await run(
      store().keep(
        requestId,
        signerRef,
        'id_document',
        { fileName: 'id.png', contentType: 'image/png', bytes: PNG },
        '2030-01-01T00:00:00.000Z',
      ),
    );
    await run(
      store().keep(
        requestId,
        signerRef,
        'id_document',
        { fileName: 'id.pdf', contentType: 'application/pdf', bytes: PDF },
        '2030-01-01T00:01:00.000Z',
      ),
    );
    assert.equal(await countRows(h.pool, 'signer_attachments'), 1);
    const kept = {
      fieldName: 'id_document',
      fileName: 'id.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
      sha256: createHash('sha256').update(PDF).digest('hex'),
      keptAt: '2030-01-01T00:01:00.000Z',
    };
    assert.deepEqual(await run(store().keptBy(requestId, signerRef)), [kept]);
    assert.deepEqual(await run(store().keptBy(requestId, 'someone-else')), []);
    const file = await run(store().file(requestId, signerRef, 'id_document'));
    assert.ok(O.isSome(file));
    assert.deepEqual({ ...file.value, content: Buffer.from(file.value.content) }, { ...kept, content: PDF });
    assert.ok(O.isNone(await run(store().file(requestId, signerRef, 'other'))));
  });

  it('serves no file its signer has not signed with, nor to another Site', async () => {
    const own = await principal();
    await h.http.get(`/v1.1/requests/${requestId}/attachments/id_document`).set(own).expect(404);
    const other = await principal([SITE_B]);
    const refused = await h.http
      .get(`/v1.1/requests/${requestId}/attachments/id_document`)
      .set(other)
      .expect(404);
    assert.match(JSON.stringify(refused.body), /No such request/);
  });

  it('refuses a file type the table does not know, whatever a caller writes', async () => {
    await assert.rejects(
      h.pool.query(sql.unsafe`
        UPDATE signer_attachments SET content_type = 'text/html' WHERE request_id = ${requestId}`),
    );
  });

  it('sweeps away the files nobody will sign with: a former signer’s, and a cancelled Request’s', async () => {
    const file = { fileName: 'id.png', contentType: 'image/png' as const, bytes: PNG };
    await run(store().keep(requestId, 'no-longer-a-signer', 'id_document', file, '2030-01-01T00:02:00.000Z'));
    assert.equal(await purgeUnsignedAttachments(h.pool), 1, 'only the former signer’s');
    assert.deepEqual(
      (await run(store().keptBy(requestId, signerRef))).map((k) => k.fileName),
      ['id.pdf'],
      'a signer still to sign keeps theirs',
    );
    await h.http
      .post(`/v1.1/requests/${requestId}/cancel`)
      .set(await principal())
      .send({})
      .expect(200);
    assert.equal(await purgeUnsignedAttachments(h.pool), 1);
    assert.equal(await countRows(h.pool, 'signer_attachments'), 0);
  });

  it('keeps the file a signer signed with, and sweeps away one for a field not asked of them', async () => {
    const headers = await principal();
    const { id, url, ref } = await sentRequest(
      h,
      [
        { name: 'id_document', type: 'attachment' },
        { name: 'has_proof', type: 'checkbox' },
        { name: 'proof', type: 'attachment', shown_if: { field: 'has_proof' } },
        { name: 'signature', type: 'signature' },
      ],
      'second@example.com',
    );
    const file = { fileName: 'id.png', contentType: 'image/png' as const, bytes: PNG };
    await run(store().keep(id, ref, 'id_document', file, '2030-01-01T00:03:00.000Z'));
    await run(store().keep(id, ref, 'proof', { ...file, fileName: 'proof.png' }, '2030-01-01T00:03:00.000Z'));
    const page = await h.http.get(pathOf(url)).expect(200);
    // Signed without ticking has_proof: proof is not asked, and holds no file.
    assert.equal((await postSigned(h.http, page.text, {})).status, 303);
    const values = await h.http.get(`/v1.1/requests/${id}/field_values`).set(headers).expect(200);
    assert.deepEqual(
      (values.body as { data: { name: string; value: unknown }[] }).data
        .filter((f) => f.name !== 'signature')
        .map((f) => [f.name, f.value]),
      [
        ['id_document', 'id.png'],
        ['has_proof', false],
        ['proof', ''],
      ],
    );
    assert.equal(await purgeUnsignedAttachments(h.pool), 1);
    assert.deepEqual(
      (await run(store().keptBy(id, ref))).map((k) => k.fieldName),
      ['id_document'],
    );
    await h.http.get(`/v1.1/requests/${id}/attachments/id_document`).set(headers).expect(200);
    await h.http.get(`/v1.1/requests/${id}/attachments/proof`).set(headers).expect(404);
  });
});
