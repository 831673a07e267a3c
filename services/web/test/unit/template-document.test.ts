import assert from 'node:assert/strict';
import request from 'supertest';
import { appWith, contract, CURRENT, SESSION } from '../support/fake-api.js';

const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
const lease = { ...contract(12, 'Lease', 'published', []), type: 'pdf', html: null };

/** ADR 3270 in the web application: a PDF template's page links and shows its file, passed through as the API streams it. */
describe('web: downloading a PDF template’s file', () => {
  const app = (stream: Response, template: unknown = lease) =>
    request(
      appWith({
        'GET /v1.1/sessions/current': CURRENT,
        'GET /v1.1/contracts/12': template,
        'STREAM /v1.1/contracts/12/document': stream,
      }).callback,
    );

  it('links the file from a PDF template’s page, and not from an HTML one’s', async () => {
    const pdfPage = await app(new Response('')).get('/app/templates/12').set('Cookie', COOKIE).expect(200);
    assert.match(pdfPage.text, /<a href="\/app\/templates\/12\/document" download>Download the PDF<\/a>/);
    const htmlPage = await app(new Response(''), {
      ...contract(12, 'NDA', 'published', []),
      html: '<p>x</p>',
    })
      .get('/app/templates/12')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.doesNotMatch(htmlPage.text, /Download the PDF/);
    assert.doesNotMatch(htmlPage.text, /document\/inline/);
  });

  it('shows the file in a titled frame on a PDF template’s page', async () => {
    const pdfPage = await app(new Response('')).get('/app/templates/12').set('Cookie', COOKIE).expect(200);
    assert.match(
      pdfPage.text,
      /<h2>The PDF<\/h2>\s*<iframe\s+class="preview pdf"\s+src="\/app\/templates\/12\/document\/inline"\s+title="The PDF of Lease"/,
    );
  });

  it('serves the framed file inline, under the same name, framable by our own pages only', async () => {
    const res = await app(
      new Response('%PDF-1.7 lease', {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': 'attachment; filename="contract-12.pdf"',
        },
      }),
    )
      .get('/app/templates/12/document/inline')
      .set('Cookie', COOKIE)
      .buffer(true)
      .expect(200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-disposition'], 'inline; filename="contract-12.pdf"');
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'self'");
    assert.equal(String(res.body), '%PDF-1.7 lease');
  });

  it('passes the file through with the API’s name for it', async () => {
    const res = await app(
      new Response('%PDF-1.7 lease', {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': 'attachment; filename="contract-12.pdf"',
        },
      }),
    )
      .get('/app/templates/12/document')
      .set('Cookie', COOKIE)
      .buffer(true)
      .expect(200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="contract-12.pdf"');
    // Saved, not framed: every page of the application refuses to be framed.
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(String(res.body), '%PDF-1.7 lease');
  });

  it('shows the API’s refusal, or its own words when the API sent none', async () => {
    const refused = await app(
      Response.json(
        {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          code: 'template_is_html',
          detail: 'An HTML template has no file.',
        },
        { status: 409, headers: { 'content-type': 'application/problem+json' } },
      ),
    )
      .get('/app/templates/12/document')
      .set('Cookie', COOKIE)
      .expect(409);
    assert.match(refused.text, /An HTML template has no file\./);
    const failed = await app(new Response('bad gateway', { status: 502 }))
      .get('/app/templates/12/document')
      .set('Cookie', COOKIE)
      .expect(502);
    assert.match(failed.text, /Only a PDF template has a file to download\./);
  });
});
