import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, REQUEST_ID as ID } from '../support/fake-api.js';
import {
  answers,
  contract,
  COOKIE,
  CREATE,
  FILLED,
  keyOf,
  list,
  post,
  SEND,
  TEMPLATES,
} from '../support/request-new.js';

describe('web: New Request (pages, against a fake API)', () => {
  it('is linked from the Requests page and lists the published templates, with a fresh Idempotency-Key per form', async () => {
    const app = appWith(
      answers({ 'GET /v1.1/sites/3/requests?page=1&per_page=20': { ...list([]), per_page: 20 } }),
    );
    const requests = await request(app.callback).get('/app/requests').set('Cookie', COOKIE).expect(200);
    assert.match(requests.text, /href="\/app\/requests\/new">New Request</);
    const page = await request(app.callback).get('/app/requests/new').set('Cookie', COOKIE).expect(200);
    assert.match(page.text, /name="contract_11"/);
    assert.doesNotMatch(page.text, /name="contract_12"/, 'a draft template is not offered');
    assert.match(page.text, /tokens: client_name, plan/);
    assert.match(page.text, /<select\s+id="field_0"\s+name="assign:signature"/);
    for (const n of [1, 2, 3]) assert.match(page.text, new RegExp(`id="signer_id_${n}"`));
    assert.match(page.text, /<textarea[^>]*id="render_data"/);
    assert.match(page.text, /type="datetime-local"/);
    assert.match(page.text, /id="send_now"\s+name="send_now"\s+value="true"\s+checked/);
    const key = keyOf(page.text);
    assert.match(key, /^[0-9a-f-]{36}$/);
    const again = await request(app.callback).get('/app/requests/new').set('Cookie', COOKIE).expect(200);
    assert.notEqual(keyOf(again.text), key, 'each form shown has its own key');
  });

  it('offers every published template, past the API’s first page of 100 (all pages read, the rest at once)', async () => {
    const published = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => contract(from + i, `Template ${from + i}`, 'published', []));
    const app = appWith(
      answers({
        [TEMPLATES]: { ...list(published(1, 100)), total_count: 250, has_more: true },
        'GET /v1.1/sites/3/contracts?page=2&per_page=100&state=published&archived=false': {
          ...list(published(101, 100)),
          page: 2,
          total_count: 250,
          has_more: true,
        },
        'GET /v1.1/sites/3/contracts?page=3&per_page=100&state=published&archived=false': {
          ...list(published(201, 50)),
          page: 3,
          total_count: 250,
        },
      }),
    );
    const page = await request(app.callback).get('/app/requests/new').set('Cookie', COOKIE).expect(200);
    for (const id of [1, 100, 101, 250])
      assert.match(page.text, new RegExp(`name="contract_${id}"`), String(id));
    assert.equal(page.text.match(/name="contract_\d+"/g)?.length, 250);
  });

  it('creates the Request with the exact body and the form’s Idempotency-Key, a draft without Send now', async () => {
    const app = appWith(answers());
    const res = await post(app, FILLED).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=created`);
    const creates = app.calls.filter((c) => `${c.method} ${c.path}` === CREATE);
    assert.equal(creates.length, 1);
    assert.equal(creates[0]?.idempotencyKey, 'form-key-0001');
    assert.equal(creates[0]?.bearer, 'at_test');
    assert.deepEqual(creates[0]?.body, {
      contracts: [11],
      signers: [
        { signer_id: 'ann@example.com', send_to: { email: true, mobile_number: false }, order: 1 },
        {
          signer_id: 'client-2',
          signer: { email: 'bob@example.com', mobile_number: '(555) 201-0123' },
          send_to: { email: true, mobile_number: true },
          order: 2,
        },
      ],
      fields: [{ name: 'signature', assigned_to: 'client-2' }],
      render_data: { client_name: 'Ann Lee', plan: 'gold = best' },
      redirect_url: 'https://client.example/done',
      expires_at: '2030-01-31T12:00:00Z',
      test_mode: true,
    });
    assert.equal(app.calls.filter((c) => `${c.method} ${c.path}` === SEND).length, 0);
    const shown = await request(app.callback)
      .get(`/app/requests/${ID}?done=created`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(shown.text, /The Request was created as a draft/);
  });

  it('with Send now sends it at once, and a second click makes no second Request', async () => {
    const app = appWith(answers());
    const one = {
      contract_11: 'on',
      signer_id_1: 'ann@example.com',
      notify_email_1: 'true',
      send_now: 'true',
    };
    for (let click = 0; click < 2; click++) {
      const res = await post(app, one).expect(303);
      assert.equal(res.headers.location, `/app/requests/${ID}?done=created-sent`);
    }
    const calls = app.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.idempotencyKey]);
    assert.deepEqual(calls, [
      ['/v1.1/sites/3/requests', 'form-key-0001'],
      [`/v1.1/requests/${ID}/send`, 'form-key-0001-send'],
      ['/v1.1/sites/3/requests', 'form-key-0001'],
      [`/v1.1/requests/${ID}/send`, 'form-key-0001-send'],
    ]);
    assert.deepEqual(app.calls.find((c) => c.path === '/v1.1/sites/3/requests')?.body, {
      contracts: [11],
      signers: [{ signer_id: 'ann@example.com', send_to: { email: true, mobile_number: false } }],
      fields: [{ name: 'signature', assigned_to: 'ann@example.com' }],
    });
  });

  it('shows the API’s problems beside their fields, keeping what was typed and the key', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The body is not valid.', {
      'signers[0].signer.email': 'must be an e-mail address',
      'render_data.nope': '"nope" is not a token of the contracts of this Request',
      'fields[0].assigned_to': 'no signer of this Request has signer_id "x"',
      somewhere_else: 'is odd',
    });
    const app = appWith(answers({ [CREATE]: refused }));
    const res = await post(app, {
      contract_11: 'on',
      signer_id_2: 'bob',
      email_2: 'bob@',
      notify_email_2: 'true',
      'assign:signature': '2',
      render_data: 'nope=1',
      redirect_url: 'https://client.example/done',
    }).expect(422);
    assert.match(res.text, /id="email_2-error">must be an e-mail address</);
    assert.match(
      res.text,
      /id="email_2"\s+name="email_2"\s+type="email"\s+value="bob@"\s+aria-invalid="true"/,
    );
    assert.match(res.text, /id="render_data-error">render_data\.nope: &quot;nope&quot; is not a token/);
    assert.match(res.text, /id="field_0-error">no signer of this Request/);
    assert.match(res.text, />\nnope=1<\/textarea/);
    assert.match(res.text, /value="https:\/\/client\.example\/done"/);
    assert.match(res.text, /<option value="2"\s+selected>\s*Signer 2\s*<\/option>/);
    assert.match(res.text, /<a href="#email_2">Signer 2 e-mail address: must be an e-mail address<\/a>/);
    assert.match(res.text, /<code>somewhere_else<\/code>: is odd/);
    assert.match(res.text, /No Request was created\. Correct the fields below\./);
    assert.equal(keyOf(res.text), 'form-key-0001', 'the corrected form is still the same form');
  });

  it('sends the CC addresses as typed, each in its place, and shows a refusal of one beside the field (ADR 3230)', async () => {
    const app = appWith(answers());
    await post(app, { ...FILLED, cc: ' Legal@example.com, ops@example.com;\nboss@example.com ' }).expect(303);
    const create = app.calls.find((c) => `${c.method} ${c.path}` === CREATE);
    assert.deepEqual((create?.body as { cc?: string[] }).cc, [
      'Legal@example.com',
      'ops@example.com',
      'boss@example.com',
    ]);
    const none = appWith(answers());
    await post(none, FILLED).expect(303);
    assert.equal('cc' in (none.calls.find((c) => `${c.method} ${c.path}` === CREATE)?.body as object), false);

    const refused = appWith(
      answers({
        [CREATE]: apiProblem(422, 'invalid_body', 'The body is not valid.', { 'cc[1]': 'repeats cc[0]' }),
      }),
    );
    const res = await post(refused, { ...FILLED, cc: 'a@example.com, A@example.com' }).expect(422);
    assert.match(res.text, /<label for="cc">CC \(optional\)<\/label>/);
    assert.match(res.text, /id="cc-error">cc\[1\]: repeats cc\[0\]</);
    assert.match(res.text, /id="cc"\s+name="cc"\s+type="text"\s+value="a@example.com, A@example.com"/);
  });

  it('refuses what it can tell itself: no template, no signer id, a render data line that is not token=value', async () => {
    const app = appWith(answers());
    const res = await post(app, {
      email_1: 'ann@example.com',
      render_data: 'client_name=Ann\njust text',
    }).expect(422);
    assert.match(res.text, /id="contracts-error">Choose at least one contract template\./);
    assert.match(res.text, /id="signer_id_1-error">Enter the signer id/);
    assert.match(res.text, /id="render_data-error">Line 2 is not token=value\./);
    const expiry = await post(app, { contract_11: 'on', signer_id_1: 'a', expires_at: 'soon' }).expect(422);
    assert.match(
      expiry.text,
      /id="expires_at-error">Enter a date and time such as 2030-01-31 12:00 \(UTC\)\./,
    );
    const none = await post(app, { contract_11: 'on' }).expect(422);
    assert.match(none.text, /id="signer_id_1-error">Enter at least one signer\./);
    assert.equal(app.calls.filter((c) => c.method === 'POST').length, 0, 'nothing sent to the API');
  });

  it('says when the Site has no published template, and links to the Templates page', async () => {
    const app = appWith(
      answers({
        [TEMPLATES]: list([contract(12, 'Draft one', 'draft', [])]),
      }),
    );
    const page = await request(app.callback).get('/app/requests/new').set('Cookie', COOKIE).expect(200);
    assert.match(page.text, /This Site has no published contract template yet/);
    assert.match(page.text, /<a href="\/app\/templates">Templates page<\/a>/);
    assert.doesNotMatch(page.text, /Create Request/);
  });

  it('lands on the Request’s page saying it was created but not sent, and why, when the send fails', async () => {
    const app = appWith(
      answers({
        [SEND]: apiProblem(
          422,
          'send_preconditions_failed',
          'Every field must be assigned to a signer before sending; unassigned: signature.',
          'fields[0].assigned_to',
          'field "signature" is not assigned to a signer',
        ),
      }),
    );
    const res = await post(app, {
      contract_11: 'on',
      signer_id_1: 'ann@example.com',
      send_now: 'true',
    }).expect(422);
    assert.match(res.text, /<h1>Request <code>7b0e7d1c<\/code>/);
    assert.match(
      res.text,
      /The Request was created, but it was not sent: Every field must be assigned to a signer before sending/,
    );
    assert.match(res.text, /fields\[0\]\.assigned_to: field &quot;signature&quot; is not assigned/);
    assert.match(res.text, /action="\/app\/requests\/[^"]+\/send"/, 'it can be sent from there');
  });
});
