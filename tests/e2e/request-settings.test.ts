// Changing an open Request's expiry and automatic reminders (ADR 3150), through the
// gateway and the typed client, against the whole system: a Request about to expire is
// given more time, and its signer signs after the first expiry has passed; reminders are
// set on a sent Request and scheduled from its send; what a client gets wrong is refused
// by field and by state, and changes nothing. A draft's render_data is replaced (ADR 3220).
import assert from 'node:assert/strict';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import {
  agreementRequest,
  clientOf,
  clientRef,
  ok,
  publishedAgreement,
  unique,
  uniqueMobile,
  waitForMail,
  executionUrlIn,
  type ClientOf,
  type RequestBody,
} from './support/flow.js';
import { signAt } from './support/signer.js';

interface Settings extends RequestBody {
  readonly expires_at: string | null;
  readonly reminder_interval_days: number | null;
  readonly next_reminder_at: string | null;
  readonly sent_at: string | null;
  readonly updated_at: string;
}

interface Problem {
  readonly code: string;
  readonly errors?: ReadonlyArray<{ path: string; message: string }>;
}

const DAY_MS = 86_400_000;
/** How long the first expiry leaves for the create, the send and the change, on a busy machine too. */
const FIRST_LIFE_MS = 6_000;

describe('end to end through the gateway: an open Request’s expiry and reminders', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_request_settings' });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
  });

  const sentRequest = async (email: string, overrides = {}): Promise<Settings> => {
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: agreementRequest(template, { email, mobile: uniqueMobile() }, overrides),
      }),
      201,
      'create',
    );
    expectStatus(await acme.api.post(`/v1.1/requests/${created.id}/send`), 200);
    return expectStatus(await acme.api.get<Settings>(`/v1.1/requests/${created.id}`), 200).body;
  };

  it('gives a Request about to expire more time: its signer signs after the first expiry passed', async () => {
    const email = `late-${unique()}@example.com`;
    const firstExpiry = new Date(Date.now() + FIRST_LIFE_MS);
    const request = await sentRequest(email, { expires_at: firstExpiry.toISOString() });
    const link = executionUrlIn((await waitForMail(system, email)).mail.text ?? '');
    const extended = new Date(Date.now() + 10 * DAY_MS).toISOString();
    const changed = ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}', {
        params: { path: { request_id: request.id } },
        body: { expires_at: extended },
      }),
      200,
      'extend',
    );
    assert.equal(changed.expires_at, extended);
    assert.equal(changed.state, 'sent');

    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, firstExpiry.getTime() + 500 - Date.now())),
    );
    const signed = await signAt(link, 'Jane Q. Client');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    const after = expectStatus(await acme.api.get<Settings>(`/v1.1/requests/${request.id}`), 200).body;
    assert.equal(after.state, 'sent', 'the other signer has yet to sign');
    assert.equal(after.signers.find((s) => s.signer_id === clientRef(email))?.state, 'signed');
  });

  it('sets reminders on a sent Request, from its send; null stops them; the same values again change nothing', async () => {
    const request = await sentRequest(`remind-${unique()}@example.com`);
    assert.equal(request.next_reminder_at, null);
    const path = `/v1.1/requests/${request.id}`;
    const set = expectStatus(
      await acme.api.call<Settings>('PATCH', path, { reminder_interval_days: 2 }),
      200,
    ).body;
    assert.equal(set.reminder_interval_days, 2);
    assert.equal(Date.parse(set.next_reminder_at!), Date.parse(request.sent_at!) + 2 * DAY_MS);

    const read = expectStatus(await acme.api.get<Settings>(path), 200).body;
    assert.deepEqual(
      [read.reminder_interval_days, read.next_reminder_at],
      [2, set.next_reminder_at],
      'stored',
    );
    const again = expectStatus(
      await acme.api.call<Settings>('PATCH', path, { reminder_interval_days: 2 }),
      200,
    );
    assert.equal(again.body.updated_at, set.updated_at, 'nothing changed');

    const key = { 'Idempotency-Key': `settings-${unique()}` };
    const stopped = expectStatus(
      await acme.api.call<Settings>('PATCH', path, { reminder_interval_days: null }, key),
      200,
    );
    assert.equal(stopped.body.next_reminder_at, null);
    const replayed = expectStatus(
      await acme.api.call<Settings>('PATCH', path, { reminder_interval_days: null }, key),
      200,
    );
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  });

  it('refuses by field and by state, changing nothing', async () => {
    const request = await sentRequest(`refused-${unique()}@example.com`);
    const path = `/v1.1/requests/${request.id}`;
    const refusedAt = async (body: unknown, paths: string[]) => {
      const answer = await acme.api.call<Problem>('PATCH', path, body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.deepEqual(
        answer.body.errors?.map((e) => e.path),
        paths,
      );
    };
    await refusedAt({ expires_at: new Date(Date.now() - 60_000).toISOString() }, ['expires_at']);
    await refusedAt({ expires_at: new Date(Date.now() + 400 * DAY_MS).toISOString() }, ['expires_at']);
    await refusedAt({ expires_at: 'next week' }, ['expires_at']);
    await refusedAt({ reminder_interval_days: 31 }, ['reminder_interval_days']);
    await refusedAt({}, ['(body)']);
    await refusedAt({ reminder_interval_days: 1, redirect_url: 'https://x.example' }, ['redirect_url']);
    const unchanged = expectStatus(await acme.api.get<Settings>(path), 200).body;
    assert.equal(unchanged.updated_at, request.updated_at);

    expectStatus(await acme.api.post(`${path}/cancel`), 200);
    const closed = await acme.api.call<Problem>('PATCH', path, { reminder_interval_days: 1 });
    assert.equal(closed.status, 409);
    assert.equal(closed.body.code, 'invalid_state');
  });

  it('replaces a draft’s render_data; its signer’s page shows the new values, and a sent one’s are fixed', async () => {
    const email = `render-${unique()}@example.com`;
    const draft = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: agreementRequest(template, { email, mobile: uniqueMobile() }),
      }),
      201,
      'create',
    );
    const changed = ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}', {
        params: { path: { request_id: draft.id } },
        body: { render_data: { client_name: 'Janet Client Ltd', start_date: '2031-02-03' } },
      }),
      200,
      'render_data',
    );
    assert.deepEqual(changed.render_data, { client_name: 'Janet Client Ltd', start_date: '2031-02-03' });
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    const page = await fetch(executionUrlIn((await waitForMail(system, email)).mail.text ?? ''));
    const text = await page.text();
    assert.match(text, /Between <b>Janet Client Ltd<\/b> and the provider, from 2031-02-03\./);
    const fixed = await acme.api.call<Problem>('PATCH', `/v1.1/requests/${draft.id}`, {
      render_data: { client_name: 'Someone else' },
    });
    assert.equal(fixed.status, 409);
    assert.equal(fixed.body.code, 'invalid_state');
  });

  it('assigns the fields of a draft created without them, which can then be sent', async () => {
    const email = `fields-${unique()}@example.com`;
    const mobile = uniqueMobile();
    const draft = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: { ...agreementRequest(template, { email, mobile }), fields: [] },
      }),
      201,
      'create',
    );
    const blocked = await acme.api.call<Problem>('POST', `/v1.1/requests/${draft.id}/send`);
    assert.equal(blocked.status, 422);
    const assigned = ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}', {
        params: { path: { request_id: draft.id } },
        body: {
          fields: [
            { name: 'witness_signature', assigned_to: mobile },
            { name: 'full_name', assigned_to: email },
          ],
        },
      }),
      200,
      'fields',
    );
    assert.deepEqual(
      assigned.fields.map((f) => [f.name, f.assigned_to]),
      [
        ['full_name', clientRef(email)],
        ['signature', clientRef(email)],
        ['witness_signature', mobile],
      ],
    );
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
  });
});
