import assert from 'node:assert/strict';
import request from 'supertest';
import { appWith, CURRENT, SESSION } from '../support/fake-api.js';

const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
const ID = '7b0e7d1c-5a7e-4d0e-9d55-0f0d6c7d2a11';
const AT = '2030-01-01T00:00:00.000Z';

/** A completed Request of one signer, as `GET /v1.1/requests/:id` answers it. */
const completed = {
  id: ID,
  site_id: 3,
  state: 'completed',
  contracts: [1],
  signers: [
    {
      signer_id: 'ann@example.com',
      signer_ref: 'ref-ann',
      email: 'ann@example.com',
      mobile_number: null,
      send_to: { email: true, mobile_number: false },
      state: 'signed',
      request_url: 'http://127.0.0.1:8080/sign/x',
      signed_at: AT,
      declined_at: null,
      notifications: { email: 'delivered', sms: 'not_requested' },
      order: null,
      turn: false,
      authentication: null,
      locale: null,
      viewed_at: AT,
    },
  ],
  fields: [],
  render_data: {},
  redirect_url: null,
  expires_at: null,
  created_at: AT,
  updated_at: AT,
  sent_at: AT,
  cancelled_at: null,
  expired_at: null,
  completed_at: AT,
  declined_at: null,
  last_reminded_at: null,
  remind_count: 0,
  current_order: null,
  test_mode: false,
};

describe('web: downloading the executed PDF of a Request', () => {
  const download = (stream: Response) =>
    request(
      appWith({
        'GET /v1.1/sessions/current': CURRENT,
        [`GET /v1.1/requests/${ID}`]: completed,
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

  it('falls back to its own words when the answer is not a problem document', async () => {
    const res = await download(new Response('bad gateway', { status: 502 })).expect(502);
    assert.match(res.text, /The executed PDF is available once every signer has signed/);
  });
});
