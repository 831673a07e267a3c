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
import { madeForOneSigner, sentAndOpened } from '../support/one-signer.js';
import { postSigned } from '../support/signer-forms.js';

/**
 * ADR 3710 against real Postgres, through the service's HTTP: a field asked for only while a
 * checkbox is ticked or a choice has an option, on the signer's page and when they sign.
 */
describe('requests service: fields asked for only when another is ticked or chosen (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('field_conditions');
    headers = await principal();
  });
  after(() => h.close());

  it('refuses a condition at its path, storing nothing', async () => {
    const refused = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send(
        htmlTemplateBody({
          fields: [
            { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
            { name: 'seats', type: 'text', shown_if: { field: 'plan', equals: 'Gold' } },
            { name: 'spouse', type: 'text', shown_if: { field: 'married' } },
            { name: 'single', type: 'checkbox' },
            { name: 'partner', type: 'text', shown_if: { field: 'single', equals: 'no' } },
            { name: 'team', type: 'text', shown_if: { field: 'plan', equals: ['Pro', 'Gold'] } },
          ],
        }),
      )
      .expect(422);
    assert.deepEqual((refused.body as { errors: { path: string; message: string }[] }).errors, [
      { path: 'fields[1].shown_if.equals', message: 'must be one of the options of "plan": "Basic", "Pro"' },
      { path: 'fields[2].shown_if.field', message: 'names no field of this template: "married"' },
      {
        path: 'fields[4].shown_if.equals',
        message:
          'must be true or false: the checkbox "single" shows it when ticked (true, as when left out) or when not ticked (false)',
      },
      {
        path: 'fields[5].shown_if.equals[1]',
        message: 'must be one of the options of "plan": "Basic", "Pro"',
      },
    ]);
    const typed = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send(
        htmlTemplateBody({
          fields: [
            { name: 'single', type: 'checkbox' },
            { name: 'partner', type: 'text', shown_if: { field: 'single', equals: 0 } },
          ],
        }),
      );
    assert.equal(typed.status, 422);
    assert.deepEqual((typed.body as { errors: { path: string; message: string }[] }).errors, [
      { path: 'fields[1].shown_if.equals', message: 'must be a string or a boolean or an array' },
    ]);
    const listed = await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers).expect(200);
    assert.equal((listed.body as { total_count: number }).total_count, 0, 'nothing created');
  });

  it('asks for a field while its box is ticked, and leaves it empty when it is not', async () => {
    const fields = [
      { name: 'married', type: 'checkbox' },
      { name: 'spouse', type: 'text', shown_if: { field: 'married' } },
      { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
      { name: 'seats', type: 'text', validation: 'numbers_only', shown_if: { field: 'plan', equals: 'Pro' } },
      { name: 'signature', type: 'signature' },
    ];
    const template = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: 'Household', fields }));
    const shown = await h.http.get(`/v1.1/contracts/${template}`).set(headers).expect(200);
    assert.deepEqual((shown.body as { fields: unknown[] }).fields, fields);
    const id = await madeForOneSigner(h, headers, template, fields, { spouse: 'pre-filled' });
    const page = { text: await sentAndOpened(h, headers, id) };
    assert.match(
      page.text,
      /<div class="shown-if" data-shown-if="\[\[&quot;f0&quot;,true\]\]"><p class="hint">Asked only when “Married” is ticked\.<\/p><div class="field-block"><label class="field" for="f-1">Spouse/,
    );
    assert.match(
      page.text,
      /data-shown-if="\[\[&quot;f2&quot;,&quot;Pro&quot;\]\]"><p class="hint">Asked only when “Plan” is “Pro”\./,
    );
    assert.match(
      page.text,
      /<script nonce="[^"]+">\(\(\) => \{\n  const blocks = document\.querySelectorAll\('\[data-shown-if\]'\)/,
    );
    const sign = (values: Record<string, string>) => postSigned(h.http, page.text, values);
    const refused = await sign({ f0: 'on', f1: '', f2: 'Pro', f3: 'ten' });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Spouse: is required/);
    assert.match(refused.text, /Seats: must be digits only/);
    assert.equal((await sign({ f1: 'Sam', f2: 'Basic', f3: 'ten' })).status, 303);
    const done = (await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200)).body as RequestView;
    assert.equal(done.state, 'completed');
    const { text } = await pdfText(await downloaded(h, headers, id));
    const flat = text.replace(/\s+/g, ' ');
    assert.ok(
      flat.includes('spouse: (empty) (signer@example.com)'),
      'not asked: neither typed nor pre-filled',
    );
    assert.ok(flat.includes('seats: (empty) (signer@example.com)'), flat);
    assert.ok(flat.includes('plan: Basic (signer@example.com)'), flat);
  });

  it('takes a list of conditions, any of which asks for the field, refusing each at its path (ADR 3850)', async () => {
    const body = (shownIf: unknown) =>
      htmlTemplateBody({
        fields: [
          { name: 'married', type: 'checkbox' },
          { name: 'plan', type: 'choice', options: ['Basic', 'Pro'], required: false },
          { name: 'contact', type: 'text', shown_if: shownIf },
          { name: 'signature', type: 'signature' },
        ],
      });
    const errors = async (shownIf: unknown) =>
      (
        (await h.http.post(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers).send(body(shownIf)).expect(422))
          .body as { errors: unknown[] }
      ).errors;
    const count = async () =>
      (
        (await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers).expect(200)).body as {
          total_count: number;
        }
      ).total_count;
    const before = await count();
    assert.deepEqual(await errors([]), [
      { path: 'fields[2].shown_if', message: 'must contain at least one item' },
    ]);
    assert.deepEqual(await errors([{ field: 'married' }, { field: 'plan', equals: 5 }]), [
      { path: 'fields[2].shown_if[1].equals', message: 'must be a string or a boolean or an array' },
    ]);
    assert.deepEqual(await errors([{ field: 'married' }, { field: 'nope' }]), [
      { path: 'fields[2].shown_if[1].field', message: 'names no field of this template: "nope"' },
    ]);
    assert.equal(await count(), before, 'nothing stored');

    const conditions = [{ field: 'married' }, { field: 'plan', equals: 'Pro' }];
    const template = await publishedTemplate(h.http, SITE_A, { ...body(conditions), name: 'Either' });
    const shown = await h.http.get(`/v1.1/contracts/${template}`).set(headers).expect(200);
    assert.deepEqual((shown.body as { fields: { shown_if?: unknown }[] }).fields[2]!.shown_if, conditions);
    const fields = body(conditions).fields as { name: string }[];
    const page = await sentAndOpened(h, headers, await madeForOneSigner(h, headers, template, fields));
    assert.match(
      page,
      /data-shown-if="\[\[&quot;f0&quot;,true\],\[&quot;f1&quot;,&quot;Pro&quot;\]\]"><p class="hint">Asked only when “Married” is ticked or “Plan” is “Pro”\.<\/p>/,
    );
    const refused = await postSigned(h.http, page, { f1: 'Pro' });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Contact: is required/);
    assert.equal((await postSigned(h.http, page, { f1: 'Basic', f2: 'posted anyway' })).status, 303);
  });
});
