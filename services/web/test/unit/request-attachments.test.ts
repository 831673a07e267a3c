import assert from 'node:assert/strict';
import request from 'supertest';
import { appWith, CURRENT, REQUEST_ID as ID, requestView, SESSION } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const COOKIE = `esign_session=${SESSION}; esign_api=at_test`;
const AT = '2030-01-01T10:00:00.000Z';
const COMPLETED = {
  ...requestView('completed'),
  fields: [
    { name: 'id document', assigned_to: 'ann@example.com', default_value: null },
    { name: 'proof', assigned_to: 'ann@example.com', default_value: null },
  ],
};
const VALUES = {
  data: [
    {
      name: 'id document',
      type: 'attachment',
      assigned_to: 'ann@example.com',
      value: 'Pass ✓.png',
      filled_at: AT,
    },
    { name: 'proof', type: 'attachment', assigned_to: 'ann@example.com', value: '', filled_at: AT },
  ],
};
const PATH = `/v1.1/requests/${ID}/attachments/id%20document`;

/** A signer's attached file on a Request's page, saved through the application (ADR 3920). */
describe('web: files signers attached (ADR 3920)', () => {
  const app = (stream: Response) =>
    appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/requests/${ID}`]: COMPLETED,
      [`GET /v1.1/requests/${ID}/field_values`]: VALUES,
      [`STREAM ${PATH}`]: stream,
    });
  const png = () =>
    new Response(Buffer.from([0x89, 0x50, 0x4e, 0x47]), {
      headers: {
        'content-type': 'image/png',
        'content-disposition': `attachment; filename="Pass ?.png"; filename*=UTF-8''Pass%20%E2%9C%93.png`,
      },
    });

  it('links each file by its name in What the signers entered; an optional one left empty says so', async () => {
    const text = flat(await showPage(app(png()), `/app/requests/${ID}`));
    assert.match(
      text,
      new RegExp(
        `<a href="/app/requests/${ID}/attachments/id%20document" download >Pass ✓\\.png<span class="visually-hidden"> \\(the file ann@example.com attached\\)</span></a >`,
      ),
    );
    assert.match(text, /<code>proof<\/code><\/td><td><span class="hint">left empty<\/span>/);
  });

  it('passes the file through under the type and name the API gives it', async () => {
    const res = await request(app(png()).callback)
      .get(`/app/requests/${ID}/attachments/id%20document`)
      .set('Cookie', COOKIE)
      .buffer(true)
      .expect(200);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename="Pass ?.png"; filename*=UTF-8''Pass%20%E2%9C%93.png`,
    );
  });

  it("says why in the API's words when there is no such file", async () => {
    const res = await request(
      app(
        Response.json(
          {
            type: 'about:blank',
            title: 'Not Found',
            status: 404,
            code: 'not_found',
            detail: 'No such attachment.',
          },
          { status: 404, headers: { 'content-type': 'application/problem+json' } },
        ),
      ).callback,
    )
      .get(`/app/requests/${ID}/attachments/id%20document`)
      .set('Cookie', COOKIE)
      .expect(404);
    assert.match(res.text, /No such attachment\./);
  });
});
