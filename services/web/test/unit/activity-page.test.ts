import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, COOKIE, CURRENT } from '../support/fake-api.js';

const REQUEST = '7b0e7d1c-5a7e-4d0e-9d55-0f0d6c7d2a11';
const OTHER = '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const FEED = '/v1.1/sites/3/events?order=desc&per_page=50';
const entry = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: `${type}-${String(data.request_id)}`,
  type,
  created_at: '2030-01-01T10:00:00.000Z',
  site_id: 3,
  data,
  ...extra,
});
const SIGNED = entry('request.signed', {
  request_id: REQUEST,
  signer_id: 'ann@example.com',
  signer_ref: 'r1',
});
const DECLINED = entry('request.declined', {
  request_id: OTHER,
  signer_id: 'client-2',
  signer_ref: 'r2',
  reason: 'Wrong amount',
});
const SENT = entry(
  'request.sent',
  { request_id: OTHER, signers: [{ signer_id: 'client-2', signer_ref: 'r2' }] },
  { test_mode: true },
);
const feed = (
  data: unknown[],
  more: boolean,
  nextBefore: string | null = data.length ? 'MTIzLjQ' : null,
) => ({
  data,
  has_more: more,
  next_after: 'OTk5Ljk',
  next_before: nextBefore,
});

/** `/app/activity`: the Site's feed looked back, newest first (ADR 3190). */
describe('web: the Site’s Activity page', () => {
  const show = async (answers: Record<string, unknown>, path: string, status = 200) => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, ...answers });
    const res = await request(app.callback).get(path).set('Cookie', COOKIE).expect(status);
    return { text: res.text, calls: app.calls.filter((c) => c.path.includes('/events')).map((c) => c.path) };
  };

  it('lists what happened lately, newest first, each linking to its Request, with Older when there is more', async () => {
    const { text, calls } = await show(
      { [`GET ${FEED}`]: feed([SIGNED, DECLINED, SENT], true) },
      '/app/activity',
    );
    assert.deepEqual(calls, [FEED]);
    assert.match(text, /<h1>Activity <span class="hint">on Production<\/span><\/h1>/);
    const rows = [...text.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((m) => m[1]!);
    assert.equal(rows.length, 3);
    assert.match(rows[0]!, /Signed by ann@example\.com/);
    assert.match(
      rows[0]!,
      new RegExp(
        `<a href="/app/requests/${REQUEST}"\\s*><code>7b0e7d1c</code\\s*><span class="visually-hidden"> \\(Request ${REQUEST}\\)</span></a`,
      ),
    );
    assert.match(rows[1]!, /Declined by client-2 — reason: Wrong amount/);
    assert.match(rows[2]!, /Sent to client-2 <span class="state state-test"/);
    assert.doesNotMatch(rows[0]!, /state-test/);
    assert.match(text, /<a href="\/app\/activity\?before=MTIzLjQ" rel="next">Older<\/a>/);
    assert.doesNotMatch(text, />Newest</, 'already the newest');
  });

  it('filters by one type, kept by Older; an unknown type is all of them', async () => {
    const filtered = `${FEED}&type=request.declined`;
    const { text, calls } = await show(
      { [`GET ${filtered}`]: feed([DECLINED], true) },
      '/app/activity?type=request.declined',
    );
    assert.deepEqual(calls, [filtered]);
    assert.match(text, /<option value="request.declined"\s+selected>\s*Declined\s*<\/option>/);
    // request.updated is any change of a Request's settings, not only its expiry (ADRs 3220, 3230, 3380).
    assert.match(text, /<option value="request.updated"\s*>\s*Settings changed\s*<\/option>/);
    assert.match(text, /href="\/app\/activity\?type=request.declined&amp;before=MTIzLjQ" rel="next">Older/);
    const unknown = await show({ [`GET ${FEED}`]: feed([], false) }, '/app/activity?type=request.created');
    assert.deepEqual(unknown.calls, [FEED]);
    assert.match(unknown.text, /No events yet: they appear here once Requests are sent\./);
  });

  it('reads older entries before a cursor, with a way back to the newest; the last page has no Older', async () => {
    const older = `${FEED}&before=MTIzLjQ`;
    const { text, calls } = await show(
      { [`GET ${older}`]: feed([SENT], false) },
      '/app/activity?before=MTIzLjQ',
    );
    assert.deepEqual(calls, [older]);
    assert.match(text, /<a href="\/app\/activity">Newest<\/a>/);
    assert.doesNotMatch(text, />Older</);
    const none = await show(
      { [`GET ${FEED}&type=request.expired&before=MTIzLjQ`]: feed([], false) },
      '/app/activity?type=request.expired&before=MTIzLjQ',
    );
    assert.match(none.text, /No older “Expired” events\./);
    // What cannot be a cursor is not sent on.
    const odd = await show(
      { [`GET ${FEED}`]: feed([], false) },
      `/app/activity?before=${encodeURIComponent('a&b=c')}`,
    );
    assert.deepEqual(odd.calls, [FEED]);
  });

  it('shows a template event chosen by type, linking to its template unless it was deleted (ADR 3700)', async () => {
    const template = (type: string, id: number, name: string, extra: Record<string, unknown> = {}) =>
      entry(type, { contract_id: id, name, type: 'html', state: 'published', archived_at: null, ...extra });
    const published = `${FEED}&type=contract.published`;
    const { text, calls } = await show(
      {
        [`GET ${published}`]: feed(
          [template('contract.published', 12, 'NDA <v2>'), template('contract.published', 13, 'Lease')],
          false,
        ),
      },
      '/app/activity?type=contract.published',
    );
    assert.deepEqual(calls, [published]);
    assert.match(
      text,
      /<optgroup label="Templates">[\s\S]*<option value="contract.published"\s+selected>\s*Template published\s*<\/option>/,
    );
    assert.match(text, /<th scope="col">Template<\/th>/);
    const rows = [...text.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((m) => m[1]!);
    assert.match(rows[0]!, /Template published: “NDA &lt;v2&gt;”/);
    assert.match(rows[0]!, /<a href="\/app\/templates\/12"\s*>NDA &lt;v2&gt;<\/a>/);
    // A deleted template has no page to link to.
    const deleted = `${FEED}&type=contract.deleted`;
    const gone = await show(
      { [`GET ${deleted}`]: feed([template('contract.deleted', 14, 'Old')], false) },
      '/app/activity?type=contract.deleted',
    );
    assert.match(gone.text, /Template deleted: “Old”/);
    assert.doesNotMatch(gone.text, /href="\/app\/templates\/14"/);
    const none = await show(
      { [`GET ${published}`]: feed([], false) },
      '/app/activity?type=contract.published',
    );
    assert.match(none.text, /No “Template published” events yet\./);
  });

  it('says what the API refused', async () => {
    const older = `${FEED}&before=bm9wZQ`;
    const { text } = await show(
      {
        [`GET ${older}`]: apiProblem(400, 'invalid_query', 'before: must be a next_before this API answered'),
      },
      '/app/activity?before=bm9wZQ',
      400,
    );
    assert.match(text, /must be a next_before this API answered/);
  });
});
