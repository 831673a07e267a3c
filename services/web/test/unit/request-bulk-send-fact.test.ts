import assert from 'node:assert/strict';
import { CSRF, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';
import { flat } from '../support/page-text.js';

const BULK = '5d1e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f70';
const sent = requestView('sent');
const page = requestPageForm({
  action: 'remind',
  call: `POST /v1.1/requests/${ID}/remind`,
  shown: sent,
  hidden: { _csrf: CSRF },
});
/** The page's facts, as read. */
const factsOf = (text: string) => flat(/<dl class="facts">[\s\S]*?<\/dl>/.exec(text)?.[0] ?? '');

describe('web: the bulk send that made a Request (ADR 3510)', () => {
  it('names it among the facts, linked to its progress page by its short id', async () => {
    const facts = factsOf(await page.show({ ...sent, bulk_send_id: BULK }));
    assert.match(
      facts,
      new RegExp(
        `<dt>Made by</dt> <dd> bulk send <a href="/app/bulk-sends/${BULK}" ><code>5d1e6f7a</code ><span class="visually-hidden"> \\(bulk send ${BULK}\\)</span></a > </dd>`,
      ),
    );
  });

  it('says nothing of one for a Request a create or a copy made', async () => {
    const facts = factsOf(await page.show(sent));
    assert.ok(facts.includes('<dt>Id</dt>'), facts);
    assert.doesNotMatch(facts, /Made by|bulk send/);
  });
});
