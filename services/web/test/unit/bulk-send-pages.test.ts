import assert from 'node:assert/strict';
import request from 'supertest';
import { appWith } from '../support/fake-api.js';
import { answers, BULK, confirm, COOKIE, CSRF, GOOD, hidden, ORIGIN, preview } from '../support/bulk-send.js';

describe('web: bulk send from a CSV file (pages, against a fake API)', () => {
  it('offers only the Site’s published templates, and documents the CSV format', async () => {
    const page = await request(appWith(answers).callback)
      .get('/app/bulk-sends/new')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(page.text, /name="contract_11"/);
    assert.doesNotMatch(page.text, /name="contract_12"/);
    assert.match(page.text, /<code>signer_id_1<\/code>/);
    assert.match(page.text, /render_data\.&lt;token&gt;/);
  });

  it('refuses a form without a template, a bad redirect URL or a file: 422, messages by the fields, nothing sent', async () => {
    const { callback, calls } = appWith(answers);
    const page = await preview(callback, { redirect_url: 'javascript:alert(1)', send: 'true' }).expect(422);
    assert.match(page.text, /id="contracts-error">Choose at least one contract template\./);
    assert.match(page.text, /id="redirect_url-error">Enter an absolute http\(s\) address/);
    assert.match(page.text, /id="csv-error">Choose a CSV file\./);
    const broken = await preview(callback, { contract_11: 'on' }, 'signer_id,x\nc-1\n').expect(422);
    assert.match(broken.text, /The file has problems: see the preview below/);
    assert.doesNotMatch(broken.text, /Send \d+ row/);
    assert.equal(calls.filter((c) => c.method === 'POST').length, 0);
  });

  it('previews the first 10 rows with their problems, then sends once whatever the clicks', async () => {
    const { callback, calls } = appWith(answers);
    const twelve = `${GOOD}${Array.from({ length: 8 }, (_, i) => `d-${i},Eve`).join('\n')}\nzz-last,Zed\n`;
    const page = await preview(
      callback,
      { contract_11: 'on', send: 'true', redirect_url: 'https://client.example/done' },
      twelve,
    ).expect(200);
    assert.match(page.text, /13 rows;\s+1 problem\s+found\./);
    assert.match(page.text, /rows\[3\]\.signers: the row has no signer_id\./);
    assert.match(page.text, /<td>rows\[3\], line 5<\/td>/, 'the problem says where');
    assert.match(page.text, /<code>rows\[9\]<\/code>/);
    assert.doesNotMatch(page.text, /<code>rows\[10\]<\/code>/, 'ten rows shown');
    assert.match(page.text, /Send 13 rows/);
    const key = hidden(page.text, 'idempotency_key');
    assert.match(key, /^[0-9a-f-]{36}$/);
    const form = {
      _csrf: CSRF,
      idempotency_key: key,
      contracts: hidden(page.text, 'contracts'),
      redirect_url: hidden(page.text, 'redirect_url'),
      send: hidden(page.text, 'send'),
      test_mode: hidden(page.text, 'test_mode'),
      file_name: 'clients.csv',
      csv: hidden(page.text, 'csv'),
    };
    assert.equal(form.csv, twelve);
    for (let click = 0; click < 2; click++) {
      const sent = await request(callback)
        .post('/app/bulk-sends')
        .set('Cookie', COOKIE)
        .set('Origin', ORIGIN)
        .type('form')
        .send(form)
        .expect(303);
      assert.equal(sent.headers.location, `/app/bulk-sends/${BULK.id}`);
    }
    const posts = calls.filter((c) => c.method === 'POST');
    assert.deepEqual(
      posts.map((c) => c.idempotencyKey),
      [key, key],
      'both clicks carry one Idempotency-Key',
    );
    const body = posts[0]?.body as {
      contracts: number[];
      send: boolean;
      redirect_url: string;
      rows: unknown[];
    };
    assert.deepEqual(
      [body.contracts, body.send, body.redirect_url, body.rows.length],
      [[11], true, 'https://client.example/done', 13],
    );
    assert.deepEqual(body.rows[3], { signers: [], render_data: { client_name: 'Dee' } });
  });

  it('carries a message to the signers (ADR 3380) from the form through the preview to the bulk send', async () => {
    const { callback, calls } = appWith(answers);
    const typed = '  Hello,\r\nyour renewal <b>as agreed</b>. ';
    const page = await preview(callback, { contract_11: 'on', send: 'true', message: typed }, GOOD).expect(
      200,
    );
    assert.match(
      page.text,
      /<div class="signer-message" id="message-text">Hello,\nyour renewal &lt;b&gt;as agreed&lt;\/b&gt;\.<\/div>/,
      'shown in the preview as the signers will read it',
    );
    const message = hidden(page.text, 'message').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    assert.equal(message, 'Hello,\nyour renewal <b>as agreed</b>.');
    await confirm(callback, page.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>')).expect(303);
    const body = calls.find((c) => c.method === 'POST')?.body as { message?: string };
    assert.equal(body.message, 'Hello,\nyour renewal <b>as agreed</b>.');
    // Too long: said beside the field, nothing sent; none given: none asked for.
    const long = await preview(callback, { contract_11: 'on', message: 'x'.repeat(2001) }, GOOD).expect(422);
    assert.match(long.text, /id="message-error">Write at most 2,000 characters: this message has 2,001\./);
    const plain = await preview(callback, { contract_11: 'on', send: 'true' }, GOOD).expect(200);
    assert.equal(hidden(plain.text, 'message'), '');
    assert.doesNotMatch(plain.text, /id="message-text"/);
  });

  it('carries an e-mail subject (ADR 3400) from the form through the preview to the bulk send', async () => {
    const { callback, calls } = appWith(answers);
    const typed = '  Your renewal <b>2031</b> ';
    const page = await preview(callback, { contract_11: 'on', send: 'true', subject: typed }, GOOD).expect(
      200,
    );
    assert.match(
      page.text,
      /e-mail subject: <strong id="subject-text">Your renewal &lt;b&gt;2031&lt;\/b&gt;<\/strong>/,
    );
    assert.equal(hidden(page.text, 'subject'), 'Your renewal &lt;b&gt;2031&lt;/b&gt;');
    await confirm(callback, page.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>')).expect(303);
    const body = calls.find((c) => c.method === 'POST')?.body as { subject?: string };
    assert.equal(body.subject, 'Your renewal <b>2031</b>');
    // Too long: said beside the field, nothing sent; none given: none asked for.
    const long = await preview(callback, { contract_11: 'on', subject: 'x'.repeat(201) }, GOOD).expect(422);
    assert.match(long.text, /id="subject-error">Write at most 200 characters: this subject has 201\./);
    const plain = await preview(callback, { contract_11: 'on', send: 'true' }, GOOD).expect(200);
    assert.equal(hidden(plain.text, 'subject'), '');
    await confirm(callback, plain.text).expect(303);
    const bare = calls.filter((c) => c.method === 'POST').at(-1)?.body as Record<string, unknown>;
    assert.equal('subject' in bare, false);
  });

  it('carries each row’s title (ADR 3390) from a title column through the preview to the bulk send', async () => {
    const { callback, calls } = appWith(answers);
    const csv = `signer_id,title\nc-1,  Ann <b>renewal</b> \nc-2,\nc-3,${'x'.repeat(256)}\n`;
    const page = await preview(callback, { contract_11: 'on', send: 'true' }, csv).expect(200);
    assert.match(
      page.text,
      /<th scope="col">Row<\/th>\s*<th scope="col">Title<\/th>\s*<th scope="col">Signers<\/th>/,
    );
    const cells = [...page.text.matchAll(/<code>rows\[\d\]<\/code>[^]*?<\/td>\s*<td>([^]*?)<\/td>/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(cells.slice(0, 2), ['Ann &lt;b&gt;renewal&lt;/b&gt;', '<span class="hint">none</span>']);
    assert.match(
      page.text,
      /<td>rows\[2\], line 4, column title<\/td>\s*<td>rows\[2\]\.title: must be at most 255 characters\.<\/td>/,
    );
    assert.match(page.text, /Send 3 rows/, 'a title too long fails its row alone');
    await confirm(callback, page.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>')).expect(303);
    const body = calls.find((c) => c.method === 'POST')?.body as { rows: { title?: string }[] };
    assert.deepEqual(
      body.rows.map((r) => r.title),
      ['Ann <b>renewal</b>', undefined, 'x'.repeat(256)],
    );
    // No title column: no Title column in the preview.
    const plain = await preview(callback, { contract_11: 'on', send: 'true' }, GOOD).expect(200);
    assert.doesNotMatch(plain.text, /<th scope="col">Title<\/th>/);
    const form = await request(callback).get('/app/bulk-sends/new').set('Cookie', COOKIE).expect(200);
    assert.match(form.text, /<code>title<\/code>, optional: the Request's own title/);
  });

  it('shows a bulk send’s progress, its failed rows with their paths and the Requests made', async () => {
    const page = await request(appWith(answers).callback)
      .get(`/app/bulk-sends/${BULK.id}`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(page.text, /data-count="created">3</);
    assert.match(page.text, /data-count="sent">3</);
    assert.match(page.text, /data-count="failed">1</);
    assert.match(page.text, /<code>rows\[3\]\.signers<\/code>: must have at least 1 item/);
    assert.match(page.text, /href="\/app\/requests\/r0000000-0000-4000-8000-000000000000"/);
    assert.match(page.text, new RegExp(`href="/app/bulk-sends/${BULK.id}">Refresh`));
    assert.doesNotMatch(page.text, /http-equiv="refresh"/);
    assert.match(
      page.text,
      new RegExp(
        `<a href="/app/requests\\?bulk_send_id=${BULK.id}"\\s*>The Requests it made, with their states</a`,
      ),
    );
  });

  it('links to the Requests it made only once it made one', async () => {
    const none = { ...BULK, created: 0, sent: 0, requests: [] };
    const page = await request(appWith({ ...answers, [`GET /v1.1/bulk_sends/${BULK.id}`]: none }).callback)
      .get(`/app/bulk-sends/${BULK.id}`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(page.text, /data-count="created">0</);
    assert.doesNotMatch(page.text, /bulk_send_id=/);
  });
});
