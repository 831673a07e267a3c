import assert from 'node:assert/strict';
import type { RequestFieldValues, RequestView } from '@esign/contracts';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { madeForOneSigner, ONE_SIGNER, sentAndOpened } from '../support/one-signer.js';
import { postSigned } from '../support/signer-forms.js';

/**
 * ADR 3730 against real Postgres, through the service's HTTP: what the signers entered,
 * read back as the executed document shows it, before and after they sign.
 */
describe('requests service: what the signers entered, read back (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('field_values');
    headers = await principal();
  });
  after(() => h.close());

  const valuesOf = async (id: string) =>
    (
      (await h.http.get(`/v1.1/requests/${id}/field_values`).set(headers).expect(200))
        .body as RequestFieldValues
    ).data;

  it('answers each field’s pre-filled value before its signer signs, and what they entered after', async () => {
    const fields = [
      { name: 'full_name', type: 'text' },
      { name: 'married', type: 'checkbox' },
      { name: 'spouse', type: 'text', shown_if: { field: 'married' } },
      { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
      { name: 'signed_on', type: 'date_signed' },
      { name: 'signature', type: 'signature' },
    ];
    const template = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: 'Household', fields }));
    const signer = ONE_SIGNER;
    const id = await madeForOneSigner(h, headers, template, fields, { spouse: 'pre-filled', plan: 'Pro' });
    const row = (name: string, type: string, value: string | boolean | null, filledAt: string | null) => ({
      name,
      type,
      assigned_to: signer,
      value,
      filled_at: filledAt,
    });
    assert.deepEqual(await valuesOf(id), [
      row('full_name', 'text', null, null),
      row('married', 'checkbox', null, null),
      row('spouse', 'text', 'pre-filled', null),
      row('plan', 'choice', 'Pro', null),
      row('signed_on', 'date_signed', null, null),
      row('signature', 'signature', null, null),
    ]);

    const page = await sentAndOpened(h, headers, id);
    assert.equal(
      (await postSigned(h.http, page, { f0: 'Sam Signer', f2: 'ignored', f3: 'Basic' })).status,
      303,
    );
    const after = await valuesOf(id);
    const at = after[0]!.filled_at;
    assert.match(at ?? '', /^\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual(after, [
      row('full_name', 'text', 'Sam Signer', at),
      row('married', 'checkbox', false, at),
      row('spouse', 'text', '', at),
      row('plan', 'choice', 'Basic', at),
      row('signed_on', 'date_signed', at!.slice(0, 10), at),
      row('signature', 'signature', 'Sam', at),
    ]);
  });

  it('finds no Request of a Site the caller does not reach', async () => {
    const id = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: 'Scoped' }));
    const made = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({ contracts: [id], signers: [{ signer_id: 'a@example.com' }], render_data: {} })
      .expect(201);
    await h.http
      .get(`/v1.1/requests/${(made.body as RequestView).id}/field_values`)
      .set(await principal([SITE_B]))
      .expect(404);
  });
});
