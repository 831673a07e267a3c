import assert from 'node:assert/strict';
import type { RequestFieldValues } from '@esign/contracts';
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
 * ADR 3740 against real Postgres, through the service's HTTP: a concealed field's value is
 * concealed in the executed PDF, and answered whole to the Site's API.
 */
describe('requests service: a value concealed in the executed document (real Postgres)', function () {
  let h: Harness;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('concealed_values');
    headers = await principal();
  });
  after(() => h.close());

  it('shows ***-**-6789 in the executed PDF, and the number whole to the API', async () => {
    const fields = [
      { name: 'ssn', type: 'text', validation: 'ssn', conceal: true },
      { name: 'full_name', type: 'text' },
      { name: 'signature', type: 'signature' },
    ];
    const template = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: 'Payroll', fields }));
    const shown = await h.http.get(`/v1.1/contracts/${template}`).set(headers).expect(200);
    assert.deepEqual((shown.body as { fields: unknown[] }).fields, fields);
    const id = await madeForOneSigner(h, headers, template, fields);
    const page = await sentAndOpened(h, headers, id);
    assert.equal((await postSigned(h.http, page, { f0: '123-45-6789', f1: 'Sam Signer' })).status, 303);

    const { text } = await pdfText(await downloaded(h, headers, id));
    const flat = text.replace(/\s+/g, ' ');
    assert.ok(flat.includes('ssn: ***-**-6789 (signer@example.com)'), flat);
    assert.ok(!flat.includes('123-45-6789'), 'the number is nowhere in the PDF');
    assert.ok(flat.includes('full_name: Sam Signer (signer@example.com)'), 'others as entered');
    const values = (await h.http.get(`/v1.1/requests/${id}/field_values`).set(headers).expect(200))
      .body as RequestFieldValues;
    assert.equal(values.data.find((f) => f.name === 'ssn')?.value, '123-45-6789');
  });
});
