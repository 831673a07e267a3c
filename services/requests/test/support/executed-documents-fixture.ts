import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RequestView } from '@esign/contracts';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from './harness.js';
import { formBody, hiddenInputs, pathOf } from './signer-forms.js';

export const run = promisify(execFile);
const FORM = 'application/x-www-form-urlencoded';

/** poppler's pdfsig on a file: its report, whatever its exit status. */
export const pdfsig = async (dir: string, name: string, bytes: Uint8Array): Promise<string> => {
  const file = join(dir, name);
  await writeFile(file, bytes);
  try {
    const { stdout } = await run('pdfsig', [file]);
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: unknown };
    if (failed.code === 'ENOENT')
      throw new Error('pdfsig is missing: install poppler-utils (.ci/apt-packages)');
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
};

/** poppler's pdftotext: the text a reader copies out of the file. */
export const pdftotext = async (dir: string, bytes: Uint8Array): Promise<string> => {
  const file = join(dir, 'text.pdf');
  await writeFile(file, bytes);
  return (await run('pdftotext', ['-enc', 'UTF-8', file, '-'])).stdout;
};

/** A byte in the middle of what the seal covers before its signature (the pages' content). */
export const middleOfContent = (pdf: Buffer): number => {
  const range = /\/ByteRange\s*\[\s*0\s+(\d+)/.exec(pdf.toString('latin1'));
  assert.ok(range, 'the seal has a /ByteRange');
  return Math.floor(Number(range[1]) / 2);
};

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The signer of the Execution URL `requestUrl` opens it and signs as `name`, filling the
 * template's fields (full name, agree, signature) and consenting.
 */
export const signsAs = async (on: Harness, requestUrl: string, name: string): Promise<void> => {
  const page = await on.http.get(pathOf(requestUrl)).expect(200);
  const signed = await on.http
    .post('/sign')
    .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
    .send(
      formBody({
        ...hiddenInputs(page.text, '/sign'),
        f0: name,
        f1: 'on',
        typed_name: name,
        consent: 'yes',
      }),
    );
  assert.equal(signed.status, 303, signed.text.slice(0, 500));
};

/** A create's body: `contract` (the "Agreement" template) for one signer, who fills every field. */
export const oneSignerAgreement = (contract: number) => ({
  contracts: [contract],
  signers: [{ signer_id: 'signer@example.com' }],
  fields: ['full_name', 'agree', 'signature'].map((f) => ({ name: f, assigned_to: 'signer@example.com' })),
  render_data: { client_name: 'Client', start_date: '2030-01-01' },
});

/** The executed PDF of Request `id`, as GET /v1.1/requests/:id/download serves it. */
export const downloaded = async (
  on: Harness,
  headers: Record<string, string>,
  id: string,
): Promise<Uint8Array> => {
  const res = await on.http.get(`/v1.1/requests/${id}/download`).set(headers).buffer(true).expect(200);
  assert.equal(res.headers['content-type'], 'application/pdf');
  return new Uint8Array(res.body as Buffer);
};

/** What the executed-document tests run against, filled in by the fixture's `before`. */
export interface ExecutedDocumentsContext {
  h: Harness;
  /** A scratch folder for the files handed to poppler and openssl. */
  dir: string;
  headers: Record<string, string>;
  /** A published HTML template named "Agreement" on site A. */
  template: number;
}

/**
 * The executed document over HTTP against real Postgres: built once and sealed as PAdES
 * (checked by poppler's pdfsig), kept, served byte-identical, verified by POST /v1.1/verify.
 * Registers its `before` and `after` hooks in the calling `describe`.
 */
export const executedDocumentsFixture = (label: string) => {
  const ctx = {} as ExecutedDocumentsContext;

  /** A Request of one signer who signs as `name`; answers it completed. */
  const completed = async (
    name: string,
    on: Harness = ctx.h,
    contract = ctx.template,
  ): Promise<RequestView> => {
    const view = (
      await on.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(ctx.headers)
        .send(oneSignerAgreement(contract))
        .expect(201)
    ).body as RequestView;
    await on.http.post(`/v1.1/requests/${view.id}/send`).set(ctx.headers).expect(200);
    await signsAs(on, view.signers[0]!.request_url, name);
    return view;
  };

  const download = (id: string): Promise<Uint8Array> => downloaded(ctx.h, ctx.headers, id);

  const verify = async (bytes: Uint8Array, status = 200) =>
    (
      await ctx.h.http
        .post('/v1.1/verify')
        .set('Content-Type', 'application/pdf')
        .send(Buffer.from(bytes))
        .expect(status)
    ).body as Record<string, unknown>;

  before(async () => {
    ctx.h = await startHarness(label);
    ctx.dir = await mkdtemp(join(tmpdir(), 'executed-'));
    ctx.headers = await principal();
    ctx.template = await publishedTemplate(ctx.h.http, SITE_A, htmlTemplateBody({ name: 'Agreement' }));
  });
  after(async () => {
    await ctx.h.close();
    await rm(ctx.dir, { recursive: true, force: true });
  });

  return { ctx, completed, download, verify };
};
