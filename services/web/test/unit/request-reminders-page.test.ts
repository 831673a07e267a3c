import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { answers, COOKIE, CREATE, post } from '../support/request-new.js';

// Automatic reminders in the web app (ADR 3130): the New Request form's "Remind every …
// days" field, and the Request page's schedule.
describe('web: automatic reminders (pages, against a fake API)', () => {
  const ONE = { contract_11: 'on', signer_id_1: 'ann@example.com', notify_email_1: 'true' };

  it('offers a labelled number field from 1 to 30, empty by default', async () => {
    const page = await request(appWith(answers()).callback)
      .get('/app/requests/new')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(page.text, /<label for="reminder_interval_days">Remind every … days \(optional\)<\/label>/);
    assert.match(
      page.text,
      /id="reminder_interval_days"\s+name="reminder_interval_days"\s+type="number" inputmode="numeric" min="1" max="30" step="1"\s+value=""/,
    );
  });

  it('sends the interval as a number, and none when left empty', async () => {
    const app = appWith(answers());
    await post(app, { ...ONE, reminder_interval_days: ' 7 ' }).expect(303);
    await post(app, { ...ONE, reminder_interval_days: '' }).expect(303);
    const bodies = app.calls.filter((c) => `${c.method} ${c.path}` === CREATE).map((c) => c.body);
    assert.equal((bodies[0] as { reminder_interval_days?: number }).reminder_interval_days, 7);
    assert.equal('reminder_interval_days' in (bodies[1] as object), false);
  });

  it('refuses 0, 31, 1.5 and text beside the field, keeping what was typed, and sends nothing', async () => {
    const app = appWith(answers());
    for (const typed of ['0', '31', '1.5', 'two']) {
      const res = await post(app, { ...ONE, reminder_interval_days: typed }).expect(422);
      assert.match(
        res.text,
        /id="reminder_interval_days-error">Enter a whole number of days from 1 to 30, or leave it empty for no automatic reminders\./,
      );
      assert.match(
        res.text,
        /aria-invalid="true" aria-describedby="reminder_interval_days-hint reminder_interval_days-error"/,
      );
      assert.match(res.text, new RegExp(`value="${typed.replace('.', '\\.')}"`));
      assert.match(res.text, /<a href="#reminder_interval_days">Remind every … days:/);
    }
    assert.equal(app.calls.filter((c) => c.method === 'POST').length, 0);
  });

  it('places the API’s refusal of the field beside it', async () => {
    const refused = apiProblem(
      422,
      'invalid_body',
      'The body is not valid.',
      'reminder_interval_days',
      'must be an integer from 1 to 30 (days), or null for no automatic reminders',
    );
    const res = await post(appWith(answers({ [CREATE]: refused })), {
      ...ONE,
      reminder_interval_days: '5',
    }).expect(422);
    assert.match(res.text, /id="reminder_interval_days-error">must be an integer from 1 to 30/);
  });

  it('shows the interval and the next reminder on the Request page, and nothing without an interval', async () => {
    const scheduled = {
      ...requestView('sent'),
      reminder_interval_days: 3,
      next_reminder_at: '2030-01-04T00:00:00.000Z',
    };
    const page = await request(appWith(answers({ [`GET /v1.1/requests/${ID}`]: scheduled })).callback)
      .get(`/app/requests/${ID}`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(
      page.text,
      /<dt>Automatic reminders<\/dt>\s*<dd>\s*every 3 days;\s*next <time datetime="2030-01-04T00:00:00.000Z"/,
    );
    const ended = { ...scheduled, state: 'completed', next_reminder_at: null };
    const done = await request(appWith(answers({ [`GET /v1.1/requests/${ID}`]: ended })).callback)
      .get(`/app/requests/${ID}`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(done.text, /every 3 days;\s*none scheduled/);
    const none = await request(
      appWith(answers({ [`GET /v1.1/requests/${ID}`]: requestView('sent') })).callback,
    )
      .get(`/app/requests/${ID}`)
      .set('Cookie', COOKIE)
      .expect(200);
    assert.doesNotMatch(none.text, /Automatic reminders/);
  });
});
