import assert from 'node:assert/strict';
import { appWith, CURRENT, page, requestView } from '../support/fake-api.js';
import { flat, showPage, statusOf } from '../support/page-text.js';

const BULK_ID = 'b7a1c2d3-0000-4000-8000-000000000001';
const LIST = 'GET /v1.1/sites/3/requests?page=1&per_page=20';
const BULK_NAME =
  `<a href="/app/bulk-sends/${BULK_ID}" ><code>b7a1c2d3</code><span class="visually-hidden">` +
  ` (bulk send ${BULK_ID})</span></a >`;

/** `/app/requests?bulk_send_id=`: the Requests a bulk send made (ADR 3440), from its progress page. */
describe('web: the Requests a bulk send made', () => {
  it('asks the API for them (the id read lower-case), says so, and keeps it in the state filter', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`${LIST}&state=sent&bulk_send_id=${BULK_ID}`]: page([requestView('sent')]),
    });
    const text = await showPage(app, `/app/requests?state=sent&bulk_send_id=${BULK_ID.toUpperCase()}`);
    assert.equal(
      statusOf(text),
      `<p role="status"> 1 Request in state sent made by bulk send ${BULK_NAME}. ` +
        '<a href="/app/requests?state=sent">Not only this bulk send’s</a> ',
    );
    assert.match(text, new RegExp(`<input type="hidden" name="bulk_send_id" value="${BULK_ID}" />`));
  });

  it('leaves out an id that is not a UUID', async () => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, [LIST]: page([requestView('sent')]) });
    const text = await showPage(app, '/app/requests?bulk_send_id=42');
    assert.doesNotMatch(text, /bulk_send_id|made by bulk send/);
  });

  it('says which filter found nothing, with the way back', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`${LIST}&bulk_send_id=${BULK_ID}`]: page([]),
    });
    const text = flat(await showPage(app, `/app/requests?bulk_send_id=${BULK_ID}`));
    assert.ok(
      text.includes(
        `<p class="notice"> No Requests were made by bulk send ${BULK_NAME}. <a href="/app/requests">Clear the filter</a> </p>`,
      ),
      text,
    );
  });
});
