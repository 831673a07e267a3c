import assert from 'node:assert/strict';
import request from 'supertest';
import { appWith, CURRENT, REQUEST_ID as ID, requestView, SESSION } from '../support/fake-api.js';

const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
describe('web: downloading the executed PDF of a Request', () => {
  const download = (stream: Response) =>
    request(
      appWith({
        'GET /v1.1/sessions/current': CURRENT,
        [`GET /v1.1/requests/${ID}`]: requestView('completed'),
        [`STREAM /v1.1/requests/${ID}/download`]: stream,
      }).callback,
    )
      .get(`/app/requests/${ID}/download`)
      .set('Cookie', COOKIE);

  it('passes the PDF through as the API streams it', async () => {
    const res = await download(
      new Response('%PDF-1.7 sealed', {
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="x.pdf"' },
      }),
    )
      .buffer(true)
      .expect(200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(String(res.body), '%PDF-1.7 sealed');
  });

  it("says why in the API's words when the PDF cannot be made now, not that someone has yet to sign", async () => {
    const detail =
      "The executed document cannot be sealed right now: the seal's certificate expired on 2026-12-01T00:00:00.000Z. Retry later.";
    const res = await download(
      Response.json(
        {
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          code: 'executed_document_unavailable',
          detail,
        },
        { status: 503, headers: { 'content-type': 'application/problem+json' } },
      ),
    ).expect(503);
    // The page escapes the apostrophe.
    assert.match(res.text, /the seal&#39;s certificate expired on 2026-12-01T00:00:00.000Z/);
    assert.doesNotMatch(res.text, /once every signer has signed/);
  });

  it('shows the executed PDF in a completed Request’s page, served inline and framable by our pages only', async () => {
    const app = (state: 'completed' | 'sent') =>
      request(
        appWith({
          'GET /v1.1/sessions/current': CURRENT,
          [`GET /v1.1/requests/${ID}`]: requestView(state),
          [`STREAM /v1.1/requests/${ID}/download`]: new Response('%PDF-1.7 sealed', {
            headers: {
              'content-type': 'application/pdf',
              'content-disposition': 'attachment; filename="x.pdf"',
            },
          }),
        }).callback,
      );
    const completed = await app('completed').get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200);
    assert.match(
      completed.text,
      new RegExp(
        `<h2>The executed PDF</h2>\\s*<iframe class="preview pdf" src="/app/requests/${ID}/download/inline" title="The executed PDF"`,
      ),
    );
    const sent = await app('sent').get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200);
    assert.doesNotMatch(sent.text, /download\/inline/);
    const framed = await app('completed')
      .get(`/app/requests/${ID}/download/inline`)
      .set('Cookie', COOKIE)
      .buffer(true)
      .expect(200);
    assert.equal(framed.headers['content-disposition'], 'inline; filename="x.pdf"');
    assert.equal(framed.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(String(framed.body), '%PDF-1.7 sealed');
  });

  it('falls back to its own words when the answer is not a problem document', async () => {
    const res = await download(new Response('bad gateway', { status: 502 })).expect(502);
    assert.match(res.text, /The executed PDF is available once every signer has signed/);
  });
});
