import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { downloaded } from '../support/executed-documents-fixture.js';
import { pdfText } from '../support/pdf-text.js';
import { pathOf, postSigned } from '../support/signer-forms.js';

const BOB = 'bob@example.com';
const ALICE = 'alice@example.com';
const FIELDS = [
  { name: 'married', type: 'checkbox' },
  { name: 'spouse', type: 'text', required: true, shown_if: { field: 'married' } },
  { name: 'signature', type: 'signature' },
];

/**
 * ADR 3840 against real Postgres, through the service's HTTP: a field asked for only when a
 * box another signer fills in is ticked, decided by what they signed with.
 */
describe('requests service: a condition on a field another signer has answered (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;
  let template: number;

  before(async () => {
    h = await startHarness('field_condition_answers');
    headers = await principal();
    template = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({ name: 'Household', fields: FIELDS }),
    );
  });
  after(() => h.close());

  /** A sent Request: Bob answers "married", Alice "spouse"; each signer's page path. */
  const sentToBoth = async () => {
    const made = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [template],
        signers: [{ signer_id: BOB }, { signer_id: ALICE }],
        fields: [
          { name: 'married', assigned_to: BOB },
          { name: 'spouse', assigned_to: ALICE },
          { name: 'signature', assigned_to: ALICE },
        ],
        render_data: { client_name: 'Client', start_date: '2030-01-01' },
      })
      .expect(201);
    const { id } = made.body as RequestView;
    const sent = (await h.http.post(`/v1.1/requests/${id}/send`).set(headers).expect(200))
      .body as RequestView;
    const path = (signerId: string) =>
      pathOf(sent.signers.find((s) => s.signer_id === signerId)!.request_url);
    return { id, bob: path(BOB), alice: path(ALICE) };
  };
  const opened = async (path: string) => (await h.http.get(path).expect(200)).text;

  it('does not ask Alice for a spouse once Bob has signed without ticking "married"', async () => {
    const { id, bob, alice } = await sentToBoth();
    const before = await opened(alice);
    assert.match(before, /for="f-1">Spouse/, 'asked while Bob has not signed');
    assert.doesNotMatch(before, /data-shown-if/, 'with no sentence: the page cannot tell his answer');
    assert.equal((await postSigned(h.http, await opened(bob), {})).status, 303);

    const after = await opened(alice);
    assert.doesNotMatch(after, /Spouse/, 'not on her page');
    assert.doesNotMatch(after, /<script nonce="[^"]+">\(\(\) => \{\n  const blocks/, 'nor the script');
    // The form she opened before Bob signed still posts a spouse: it is not kept.
    assert.equal((await postSigned(h.http, before, { f1: 'Carol' })).status, 303);
    const done = (await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200)).body as RequestView;
    assert.equal(done.state, 'completed');
    const flat = (await pdfText(await downloaded(h, headers, id))).text.replace(/\s+/g, ' ');
    assert.ok(flat.includes(`spouse: (empty) (${ALICE})`), flat);
    assert.ok(flat.includes(`married: No (${BOB})`), flat);
  });

  it('requires it once Bob has signed as married, her page naming no answer of his', async () => {
    const { id, bob, alice } = await sentToBoth();
    assert.equal((await postSigned(h.http, await opened(bob), { f0: 'on' })).status, 303);
    const page = await opened(alice);
    assert.match(page, /for="f-1">Spouse/);
    assert.doesNotMatch(page, /data-shown-if|Married/);
    const refused = await postSigned(h.http, page, {});
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Spouse: is required/);
    assert.equal((await postSigned(h.http, page, { f1: 'Carol' })).status, 303);
    const flat = (await pdfText(await downloaded(h, headers, id))).text.replace(/\s+/g, ' ');
    assert.ok(flat.includes(`spouse: Carol (${ALICE})`), flat);
  });
});
