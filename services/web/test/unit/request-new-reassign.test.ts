import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, CSRF, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { flat } from '../support/page-text.js';
import { assertOfferedUnticked, box, LABEL } from '../support/reassign-box.js';
import { requestPageForm } from '../support/request-page.js';
import { answers, COOKIE, CREATE, created, FILLED, keyOf, post } from '../support/request-new.js';

describe('web: New Request, signers may ask someone else to sign in their place (ADR 3560)', () => {
  it('offers the box unticked, labelled, with its hint tied to it', async () => {
    const page = await request(appWith(answers()).callback)
      .get('/app/requests/new')
      .set('Cookie', COOKIE)
      .expect(200);
    assertOfferedUnticked(page.text);
  });

  it('asks for it in the create body only when ticked', async () => {
    const ticked = appWith(answers());
    await post(ticked, { ...FILLED, allow_reassign: 'true' }).expect(303);
    assert.equal(created(ticked).allow_reassign, true);
    assert.equal(created(ticked).test_mode, true, 'the other boxes as they were');

    const unticked = appWith(answers());
    await post(unticked, FILLED).expect(303);
    assert.equal('allow_reassign' in created(unticked), false, 'no key: the API’s default');
  });

  it('shows a refusal of it beside the box, still ticked, with what was typed kept', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The body is not valid.', {
      allow_reassign: 'is not offered on this Site',
    });
    const app = appWith(answers({ [CREATE]: refused }));
    const res = await post(app, { ...FILLED, allow_reassign: 'true' }).expect(422);
    const shown = box(res.text);
    assert.ok(
      shown.startsWith(
        '<div class="field"> <p class="error" id="allow_reassign-error">is not offered on this Site</p>',
      ),
      shown,
    );
    assert.match(
      shown,
      /id="allow_reassign" name="allow_reassign" value="true" checked aria-describedby="allow_reassign-error allow_reassign-hint" aria-invalid="true"/,
    );
    assert.match(res.text, new RegExp(`<a href="#allow_reassign">${LABEL}: is not offered on this Site</a>`));
    assert.match(res.text, /id="redirect_url"\s+name="redirect_url"\s+type="url"\s+value="https:\/\/client/);
    assert.match(res.text, /id="test_mode"\s+name="test_mode"\s+value="true"\s+checked/);
    assert.equal(keyOf(res.text), 'form-key-0001');
  });
});

describe('web: a Request’s page says when its signers may reassign (ADR 3560)', () => {
  const sent = requestView('sent');
  const page = requestPageForm({
    action: 'remind',
    call: `POST /v1.1/requests/${ID}/remind`,
    shown: sent,
    hidden: { _csrf: CSRF },
  });
  const factsOf = (text: string) => flat(/<dl class="facts">[\s\S]*?<\/dl>/.exec(text)?.[0] ?? '');

  it('lists the fact when it is on', async () => {
    const facts = factsOf(await page.show({ ...sent, allow_reassign: true }));
    assert.ok(
      facts.includes(
        '<dt>Signers may reassign</dt> <dd>Yes — a signer may ask someone else to sign in their place</dd>',
      ),
      facts,
    );
  });

  it('says nothing of it when it is off', async () => {
    const facts = factsOf(await page.show(sent));
    assert.ok(facts.includes('<dt>Id</dt>'), facts);
    assert.doesNotMatch(facts, /reassign|in their place/);
  });
});
