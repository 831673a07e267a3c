import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, COOKIE, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const EXPIRES = '2030-01-31T12:00:00.000Z';

/** A sent Request expiring at EXPIRES, reminded every 3 days, the next on 4 January. */
const SCHEDULED = {
  ...requestView('sent'),
  expires_at: EXPIRES,
  reminder_interval_days: 3,
  next_reminder_at: '2030-01-04T00:00:00.000Z',
};

/** What the page showed of SCHEDULED, as its form carries it. */
const WAS = { was_expires_at: EXPIRES, was_reminder_interval_days: '3' };

describe('web: changing an open Request’s expiry and automatic reminders', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'settings',
    call: PATCH,
    shown: SCHEDULED,
    hidden: { idempotency_key: 'key-1', ...WAS },
  });

  it('offers the section, prefilled and with its own Idempotency-Key, on a sent or draft Request only', async () => {
    const page = await show(SCHEDULED);
    assert.match(page, /<section class="panel" aria-labelledby="settings-title">/);
    assert.match(page, /<h2 id="settings-title">Expiry and reminders<\/h2>/);
    assert.match(page, /action="\/app\/requests\/[0-9a-f-]{36}\/settings" novalidate/);
    assert.match(page, /<label for="expires_at">Expires at \(optional, UTC\)<\/label>/);
    assert.match(page, /id="expires_at-hint">[^<]*UTC[^<]*365 days ahead\. Leave it empty for no expiry\.</);
    assert.match(
      page,
      /id="expires_at"\s+name="expires_at"\s+type="datetime-local"\s+value="2030-01-31T12:00"/,
    );
    assert.match(
      page,
      /id="reminder_interval_days"\s+name="reminder_interval_days"\s+type="number" inputmode="numeric" min="1" max="30" step="1"\s+value="3"/,
    );
    assert.match(page, /Next automatic reminder: <time datetime="2030-01-04T00:00:00.000Z"/);
    assert.match(page, /<dt>Expires<\/dt>\s*<dd><time datetime="2030-01-31T12:00:00.000Z"/);
    assert.match(page, /name="was_expires_at" value="2030-01-31T12:00:00.000Z"/);
    assert.match(page, /name="was_reminder_interval_days" value="3"/);
    assert.match(page, /<button type="submit">Save expiry and reminders<\/button>/);
    const keys = page.match(/name="idempotency_key" value="([0-9a-f-]{36})"/g) ?? [];
    assert.equal(
      keys.length,
      8,
      'Correct contact, Replace signer…, New link, Title, Reassigning, CC and Copy to a new draft have their own',
    );
    assert.equal(new Set(keys).size, 8);

    const draft = await show({
      ...requestView('sent'),
      state: 'draft',
      sent_at: null,
      reminder_interval_days: 2,
    });
    assert.match(draft, /<h2 id="settings-title">Expiry and reminders<\/h2>/);
    assert.match(
      draft,
      /id="expires_at"\s+name="expires_at"\s+type="datetime-local"\s+value=""/,
      'no expiry',
    );
    assert.match(draft, /value="2"/);
    assert.match(draft, /The automatic reminders start when the Request is sent\./);
    assert.doesNotMatch(draft, /Next automatic reminder/);

    const seconds = await show({ ...SCHEDULED, expires_at: '2030-01-31T12:00:30.000Z' });
    assert.match(seconds, /name="expires_at"\s+type="datetime-local"\s+value="2030-01-31T12:00:30"/);

    for (const state of ['completed', 'cancelled', 'expired', 'declined'])
      assert.doesNotMatch(
        await show({ ...requestView('completed'), state }),
        /Expiry and reminders|\/settings"/,
        `not on a ${state} Request`,
      );
  });

  it('sends only what changed, an emptied field as null, with the form’s Idempotency-Key', async () => {
    const app = appWith(answers(SCHEDULED));
    await post(app, { expires_at: ' 2030-02-15T09:30 ', reminder_interval_days: '7' }).expect(303);
    await post(app, { expires_at: '', reminder_interval_days: '', idempotency_key: 'key-2' }).expect(303);
    await post(app, {
      expires_at: '2030-01-31T12:00',
      reminder_interval_days: '5',
      idempotency_key: 'key-3',
    });
    await post(app, { expires_at: '2030-03-01 08:00', reminder_interval_days: '3', idempotency_key: '' });
    const none = { was_expires_at: '', was_reminder_interval_days: '', idempotency_key: 'key-5' };
    await post(app, { ...none, expires_at: '2030-01-31T12:00', reminder_interval_days: '' });
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey, c.bearer]),
      [
        [{ expires_at: '2030-02-15T09:30:00Z', reminder_interval_days: 7 }, 'key-1', 'at_test'],
        [{ expires_at: null, reminder_interval_days: null }, 'key-2', 'at_test'],
        [{ reminder_interval_days: 5 }, 'key-3', 'at_test'],
        [{ expires_at: '2030-03-01T08:00:00Z' }, undefined, 'at_test'],
        [{ expires_at: '2030-01-31T12:00:00Z' }, 'key-5', 'at_test'],
      ],
    );
  });

  it('asks the API nothing when the form is sent unchanged, and says so', async () => {
    const app = appWith(answers(SCHEDULED));
    const same = await post(app, { expires_at: '2030-01-31T12:00', reminder_interval_days: '3' }).expect(303);
    assert.equal(same.headers.location, `/app/requests/${ID}?done=settings-same`);
    const none = {
      was_expires_at: '',
      was_reminder_interval_days: '',
      expires_at: '',
      reminder_interval_days: '',
    };
    await post(app, none).expect(303);
    const seconds = { was_expires_at: '2030-01-31T12:00:30.000Z', expires_at: '2030-01-31T12:00:30' };
    await post(app, { ...seconds, reminder_interval_days: '3' }).expect(303);
    assert.equal(calls(app).length, 0);
    const shown = await request(app.callback).get(same.headers.location).set('Cookie', COOKIE).expect(200);
    assert.match(
      shown.text,
      /role="status">The expiry and automatic reminders were already as given: nothing was changed\./,
    );
  });

  it('goes back to the Request page with a notice once saved', async () => {
    const app = appWith(answers({ ...SCHEDULED, reminder_interval_days: 7 }));
    const saved = await post(app, { expires_at: '2030-01-31T12:00', reminder_interval_days: '7' }).expect(
      303,
    );
    assert.equal(saved.headers.location, `/app/requests/${ID}?done=settings`);
    const shown = await request(app.callback).get(saved.headers.location).set('Cookie', COOKIE).expect(200);
    assert.match(shown.text, /role="status">The Request’s expiry and automatic reminders were saved\./);
  });

  it('refuses what is not a date and time or a number of days beside its field, and sends nothing', async () => {
    const app = appWith(answers(SCHEDULED));
    const res = await post(app, { expires_at: 'soon', reminder_interval_days: '31' }).expect(422);
    assert.match(res.text, /id="expires_at-error">Enter a date and time such as 2030-01-31 12:00 \(UTC\)\./);
    assert.match(res.text, /id="reminder_interval_days-error">Enter a whole number of days from 1 to 30/);
    assert.match(res.text, /name="expires_at"\s+type="datetime-local"\s+value="soon"\s+aria-invalid="true"/);
    assert.match(res.text, /value="31"\s+aria-invalid="true"/);
    assert.match(res.text, /role="alert"[^]*The expiry and reminders were not changed\./);
    assert.match(res.text, /<a href="#expires_at">Expires at Enter a date and time/);
    assert.match(res.text, /name="idempotency_key" value="key-1"/);
    assert.equal(calls(app).length, 0);
  });

  it('shows the API’s refusals beside their fields, keeping what was typed and the Idempotency-Key', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The body is not valid.', {
      expires_at: 'must be in the future',
      reminder_interval_days: 'must be an integer from 1 to 30 (days)',
    });
    const res = await post(appWith(answers(refused)), {
      expires_at: '2020-01-01T12:00',
      reminder_interval_days: '4',
      idempotency_key: 'key-typed',
    }).expect(422);
    const page = res.text;
    assert.match(page, /<p class="error" id="expires_at-error">must be in the future<\/p>/);
    assert.match(
      page,
      /id="expires_at"\s+name="expires_at"\s+type="datetime-local"\s+value="2020-01-01T12:00"\s+aria-invalid="true"\s+aria-describedby="expires_at-hint expires_at-error"/,
    );
    assert.match(page, /id="reminder_interval_days-error">must be an integer from 1 to 30 \(days\)</);
    assert.match(page, /value="4"\s+aria-invalid="true"/);
    assert.match(page, /name="idempotency_key" value="key-typed"/);
    assert.match(page, /role="alert"[^]*The body is not valid\. The expiry and reminders were not changed\./);
    assert.match(page, /<a href="#expires_at">Expires at must be in the future<\/a>/);
    assert.match(page, /<a href="#reminder_interval_days">Reminder interval days must be an integer/);
    const reused = { ...apiProblem(422, 'idempotency_key_reused', 'The key was used for another body.') };
    const again = await post(appWith(answers(reused)), { expires_at: '', idempotency_key: 'key-typed' });
    assert.doesNotMatch(again.text, /value="key-typed"/, 'a key used for another body is replaced');
  });

  it('shows a conflict as the page’s error notice', async () => {
    const finished = apiProblem(409, 'invalid_state', 'Cannot update a Request that is completed');
    const done = await post(appWith(answers(finished, { ...SCHEDULED, state: 'completed' })), {
      expires_at: '',
    }).expect(409);
    assert.match(
      done.text,
      /role="alert"[^]*Cannot update a Request that is completed\. The expiry and reminders were not changed\./,
    );
    assert.doesNotMatch(done.text, /Save expiry and reminders/, 'no form on a completed Request');
    const late = apiProblem(409, 'request_expired', 'The Request expired at 2030-01-01T00:00:00.000Z.');
    const expired = await post(appWith(answers(late)), { expires_at: '2030-06-01T00:00' }).expect(409);
    assert.match(
      expired.text,
      /role="alert"[^]*The Request expired at 2030-01-01T00:00:00\.000Z\. The expiry and reminders were not changed\./,
    );
    assert.match(expired.text, /name="expires_at"\s+type="datetime-local"\s+value="2030-06-01T00:00"/);
  });
});
