// Automatic reminders (ADR 3130) through the gateway, against the whole system: a Request
// created with `reminder_interval_days` and sent shows its next reminder; once that is due,
// the requests service's sweep sends the reminder through RabbitMQ, the notifier and SMTP
// with no call from the client.
import assert from 'node:assert/strict';
import pg from 'pg';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import { signAt } from './support/signer.js';
import {
  agreementRequest,
  clientOf,
  executionUrlIn,
  mailsTo,
  publishedAgreement,
  unique,
  uniqueMobile,
  waitForMail,
  type ClientOf,
  type RequestBody,
} from './support/flow.js';

interface ReminderView extends RequestBody {
  readonly reminder_interval_days: number | null;
  readonly next_reminder_at: string | null;
  readonly remind_count: number;
  readonly last_reminded_at: string | null;
  readonly sent_at: string | null;
}

interface Problem {
  readonly errors?: ReadonlyArray<{ path: string; message: string }>;
}

const DAY_MS = 86_400_000;

describe('end to end through the gateway: automatic reminders', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;

  before(async () => {
    system = await startEsignSystem({
      label: 'e2e_reminders',
      // The sweep runs beside the expiry sweep, at its interval: short here, so a due
      // reminder goes out within a fraction of a second rather than the default 5 s.
      env: { requests: { EXPIRY_SWEEP_INTERVAL_MS: '200' } },
    });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
  });

  /**
   * Simulates `days` elapsed since the send: moves the Request's send, its scheduled
   * reminder and its expiry, and its signers' signatures, that far into the past in the requests
   * service's own database, which is all the domain compares (the next reminder's time,
   * and the last notification for REMIND_MIN_INTERVAL_SECONDS: the send, or a later turn's
   * start, which is its earlier signers' last signature). Nothing else is touched; the
   * sweep does the rest.
   */
  const elapse = async (requestId: string, days: number): Promise<void> => {
    const client = new pg.Client({ connectionString: system.databases.requests.url });
    await client.connect();
    try {
      await client.query(
        `UPDATE requests
         SET sent_at = sent_at - make_interval(days => $2::int),
             next_reminder_at = next_reminder_at - make_interval(days => $2::int),
             expires_at = expires_at - make_interval(days => $2::int)
         WHERE id = $1`,
        [requestId, days],
      );
      await client.query(
        `UPDATE request_signers SET signed_at = signed_at - make_interval(days => $2::int)
         WHERE request_id = $1 AND signed_at IS NOT NULL`,
        [requestId, days],
      );
    } finally {
      await client.end();
    }
  };

  it('refuses an interval outside 1 to 30 at its path', async () => {
    const email = `refused-${unique()}@example.com`;
    const refused = await acme.api.post<Problem>(
      `/v1.1/sites/${acme.site}/requests`,
      agreementRequest(template, { email, mobile: uniqueMobile() }, { reminder_interval_days: 31 }),
    );
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.errors?.map((e) => e.path),
      ['reminder_interval_days'],
    );
  });

  it('schedules a reminder at send and the sweep e-mails it once due, then schedules the next', async () => {
    const email = `auto-${unique()}@example.com`;
    const created = expectStatus(
      await acme.api.post<ReminderView>(
        `/v1.1/sites/${acme.site}/requests`,
        agreementRequest(template, { email, mobile: uniqueMobile() }, { reminder_interval_days: 2 }),
      ),
      201,
    ).body;
    assert.equal(created.reminder_interval_days, 2);
    assert.equal(created.next_reminder_at, null);
    const sent = expectStatus(
      await acme.api.post<ReminderView>(`/v1.1/requests/${created.id}/send`),
      200,
    ).body;
    assert.equal(Date.parse(sent.next_reminder_at!), Date.parse(sent.sent_at!) + 2 * DAY_MS);
    const invitation = await waitForMail(system, email);
    assert.equal(mailsTo(system, email).length, 1, 'the send, and no reminder yet');

    await elapse(created.id, 2);
    const reminder = await eventually(() => Promise.resolve(mailsTo(system, email)[1]), 15_000);
    assert.match(reminder.mail.subject ?? '', /^Reminder:/);
    assert.equal(
      executionUrlIn(reminder.mail.text ?? ''),
      executionUrlIn(invitation.mail.text ?? ''),
      'the same Execution URL',
    );
    const after = await eventually(async () => {
      const read = expectStatus(await acme.api.get<ReminderView>(`/v1.1/requests/${created.id}`), 200).body;
      return read.remind_count === 1 ? read : undefined;
    });
    assert.equal(
      Date.parse(after.next_reminder_at!),
      Date.parse(after.last_reminded_at!) + 2 * DAY_MS,
      'the next one, two days after this one',
    );
    // Sweeps keep running: no second reminder for a Request that is not due.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(mailsTo(system, email).length, 2);
  });

  it('warns a day before the expiry, the e-mail titled and the event marked as the last day (ADR 3470)', async () => {
    const email = `warned-${unique()}@example.com`;
    const expiresAt = new Date(Date.now() + 2 * DAY_MS + 3_600_000).toISOString();
    const created = expectStatus(
      await acme.api.post<ReminderView>(
        `/v1.1/sites/${acme.site}/requests`,
        agreementRequest(
          template,
          { email, mobile: uniqueMobile() },
          { reminder_interval_days: 7, expires_at: expiresAt },
        ),
      ),
      201,
    ).body;
    const sent = expectStatus(
      await acme.api.post<ReminderView>(`/v1.1/requests/${created.id}/send`),
      200,
    ).body;
    assert.equal(Date.parse(sent.next_reminder_at!), Date.parse(expiresAt) - DAY_MS, 'the warning first');
    await waitForMail(system, email);

    await elapse(created.id, 2);
    const warning = await eventually(() => Promise.resolve(mailsTo(system, email)[1]), 15_000);
    assert.match(warning.mail.subject ?? '', /^Last day to sign:/);
    const history = expectStatus(
      await acme.api.get<{ data: { type: string; data: Record<string, unknown> }[] }>(
        `/v1.1/requests/${created.id}/events`,
      ),
      200,
    ).body;
    assert.deepEqual(
      history.data
        .filter((e) => e.type === 'request.reminded')
        .map((e) => [e.data.automatic, e.data.last_day]),
      [[true, true]],
    );

    // The expiry passes unsigned: the sweep expires it and its creator is told (ADR 3520).
    await elapse(created.id, 1);
    const owner = acme.tenant.user.email;
    const lapsed = await eventually(
      () =>
        Promise.resolve(
          mailsTo(system, owner).find(
            (m) =>
              /^Expired unsigned:/.test(m.mail.subject ?? '') && (m.mail.text ?? '').includes(created.id),
          ),
        ),
      15_000,
    );
    assert.match(
      lapsed.mail.text ?? '',
      /expired before everyone signed: its signing links no longer work\./,
    );
    assert.ok((lapsed.mail.text ?? '').includes(`${system.gatewayUrl}/app/requests/${created.id}`));
    assert.equal(mailsTo(system, email).length, 2, 'the signer is told nothing more');
  });

  it('signing in order: a later turn is reminded counting from its start, after a first turn nobody could be reminded in', async () => {
    const run = unique();
    // The client shows the first signer the page itself (no channel); the counterparty
    // after them is e-mailed.
    const host = `host-${run}@example.com`;
    const counterparty = `counterparty-${run}@example.com`;
    const created = expectStatus(
      await acme.api.post<ReminderView>(`/v1.1/sites/${acme.site}/requests`, {
        contracts: [template],
        signers: [
          { signer_id: host, order: 1 },
          { signer_id: counterparty, send_to: { email: true }, order: 2 },
        ],
        fields: [
          { name: 'full_name', assigned_to: host },
          { name: 'signature', assigned_to: host },
          { name: 'witness_signature', assigned_to: counterparty },
        ],
        render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
        reminder_interval_days: 1,
      }),
      201,
    ).body;
    expectStatus(await acme.api.post(`/v1.1/requests/${created.id}/send`), 200);
    const read = async () =>
      expectStatus(await acme.api.get<ReminderView>(`/v1.1/requests/${created.id}`), 200).body;

    // A day on, the sweep finds nobody of the first turn to remind and stops the schedule.
    await elapse(created.id, 1);
    const stopped = await eventually(async () => {
      const view = await read();
      return view.next_reminder_at === null ? view : undefined;
    }, 15_000);
    assert.equal(stopped.remind_count, 0);
    assert.equal(mailsTo(system, counterparty).length, 0, 'not their turn yet');

    const before = Date.now();
    const signed = await signAt(created.signers[0]!.request_url, 'Hannah Host');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    const after = Date.now();
    const told = await waitForMail(system, counterparty);
    const restarted = await read();
    const due = Date.parse(restarted.next_reminder_at!) - DAY_MS;
    assert.ok(
      due >= before - 1000 && due <= after + 1000,
      `one day after the turn started (${restarted.next_reminder_at}, signed between ${new Date(before).toISOString()} and ${new Date(after).toISOString()})`,
    );

    await elapse(created.id, 1);
    const reminder = await eventually(() => Promise.resolve(mailsTo(system, counterparty)[1]), 15_000);
    assert.match(reminder.mail.subject ?? '', /^Reminder:/);
    assert.equal(executionUrlIn(reminder.mail.text ?? ''), executionUrlIn(told.mail.text ?? ''));
    assert.equal(mailsTo(system, host).length, 0, 'the first signer is never e-mailed');
  });
});
