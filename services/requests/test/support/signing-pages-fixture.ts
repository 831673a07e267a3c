import assert from 'node:assert/strict';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import {
  htmlTemplateBody,
  pdfWithFields,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from './harness.js';
import { formBody, hiddenInputs, pathOf } from './signer-forms.js';

/** Awaits an answer and checks its status, showing the page when it differs. */
export const expectStatus = async <R extends { status: number; text: string }>(
  answer: Promise<R>,
  status: number,
) => {
  const res = await answer;
  assert.equal(res.status, status, res.text.slice(0, 2000));
  return res;
};

export const FORM = 'application/x-www-form-urlencoded';
const HOSTILE = '<script>alert("x")</script> & "Co"';

/** What the signer page tests run against, filled in by the fixture's `before`. */
export interface SigningPagesContext {
  h: Harness;
  headers: Record<string, string>;
  /** The "Services agreement" HTML template with all six fields. */
  htmlTemplate: number;
  /** The "Lease" PDF template with form fields. */
  pdfTemplate: number;
}

/**
 * The signer pages over HTTP against real Postgres: what each link shows, every refusal
 * with its status, signing, declining, repeats, two signers at once, and the executed PDF.
 * Registers its `before` and `after` hooks in the calling `describe`.
 */
export const signingPagesFixture = (label: string) => {
  const ctx = {} as SigningPagesContext;

  const create = async (body: Record<string, unknown>): Promise<RequestView> =>
    (await ctx.h.http.post(`/v1.1/sites/${SITE_A.id}/requests`).set(ctx.headers).send(body).expect(201))
      .body as RequestView;
  const send = async (id: string) => {
    const res = await ctx.h.http.post(`/v1.1/requests/${id}/send`).set(ctx.headers);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res;
  };
  const get = async (id: string) =>
    (await ctx.h.http.get(`/v1.1/requests/${id}`).set(ctx.headers).expect(200)).body as RequestView;

  const twoSigners = (overrides: Record<string, unknown> = {}) => ({
    contracts: [ctx.htmlTemplate],
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

  const open = (view: RequestView, signer: number) =>
    ctx.h.http.get(pathOf(view.signers[signer]!.request_url));

  /** Opens the signer's page and posts its form with `fields` (a browser's same-origin post). */
  const submit = async (
    view: RequestView,
    signer: number,
    fields: Record<string, string | undefined>,
    action = '/sign',
    extraHeaders: Record<string, string> = {},
  ) => {
    const page = await open(view, signer).expect(200);
    return ctx.h.http
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
      ctx.h.pool,
      t.type({ type: t.string, data: t.UnknownRecord }),
      sql.unsafe`SELECT envelope->>'type' AS type, envelope->'data' AS data FROM outbox
                 WHERE envelope->>'aggregate_id' = ${requestId} ORDER BY seq`,
    );
  const acts = async (requestId: string) =>
    db.any(
      ctx.h.pool,
      t.type({ kind: t.string, ip: t.string, user_agent: t.string, document_sha256: t.string }),
      sql.unsafe`SELECT kind, ip, user_agent, document_sha256 FROM signer_acts WHERE request_id = ${requestId}`,
    );

  before(async () => {
    ctx.h = await startHarness(label);
    ctx.headers = await principal();
    ctx.htmlTemplate = await publishedTemplate(
      ctx.h.http,
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
    ctx.pdfTemplate = await publishedTemplate(ctx.h.http, SITE_A, {
      type: 'pdf',
      name: 'Lease',
      pdf: await pdfWithFields(),
    });
  });
  after(() => ctx.h.close());

  return {
    ctx,
    create,
    send,
    get,
    twoSigners,
    sentRequest,
    open,
    submit,
    aliceSigns,
    bobSigns,
    events,
    acts,
  };
};
