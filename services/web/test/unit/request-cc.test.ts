import assert from 'node:assert/strict';
import { REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

/** A Request's carbon copies on its page (ADR 3230). */
describe('web: who a Request copies the signed document to', () => {
  const { show } = requestPageForm({
    action: 'x',
    call: `GET /v1.1/requests/${ID}/x`,
    shown: requestView('sent'),
    hidden: {},
  });

  it('lists them among the facts, and says nothing when there are none', async () => {
    const page = await show({ ...requestView('sent'), cc: ['legal@acme.test', 'ops@acme.test'] });
    assert.match(
      page,
      /<dt>Copies to<\/dt>\s*<dd>\s*legal@acme\.test, ops@acme\.test\s*<span class="hint">\(the signed document, once everyone has signed\)<\/span>/,
    );
    assert.doesNotMatch(await show(requestView('sent')), /Copies to/);
  });
});
