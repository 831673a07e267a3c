// Issue #22, bulk send, through the gateway against the whole system: 500 rows, 3 of them
// invalid, sent as they are made; the requests service is killed (SIGKILL) mid-way and
// started again; in the end exactly 497 Requests exist and were sent, each signer got one
// e-mail, and the 3 failures name their field paths; the Site's list of bulk sends (ADR
// 3440) shows it with the same counts.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { clientOf, ok, publishedAgreement, unique, type ClientOf } from './support/flow.js';

const ROWS = 500;

describe('end to end through the gateway: bulk send, killed mid-way (issue #22)', function () {
  this.timeout(600_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_bulk' });
    acme = clientOf(system, await system.createTenant('Bulk'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
  });

  const progress = async (id: string) =>
    ok(
      await acme.esign.GET('/v1.1/bulk_sends/{bulk_send_id}', { params: { path: { bulk_send_id: id } } }),
      200,
      'progress',
    );

  it('makes and sends 497 of 500 rows exactly once across a crash, naming the 3 invalid rows', async () => {
    const run = unique();
    const emailOf = (i: number) => `bulk-${run}-${i}@example.com`;
    const rows: unknown[] = Array.from({ length: ROWS }, (_, i) => ({
      signers: [{ signer_id: `client-${run}-${i}`, signer: { email: emailOf(i) }, send_to: { email: true } }],
      render_data: { client_name: `Client ${i}`, start_date: '2030-01-01' },
      // Assigned by the signer's address: that field and every other one (ADR 0201).
      fields: [{ name: 'full_name', assigned_to: emailOf(i) }],
    }));
    // Three rows a single create would refuse: in the row's shape, by the domain's rules.
    rows[7] = { signers: [{ signer_id: '' }] };
    rows[123] = { signers: [{ signer_id: '2045550123', send_to: { mobile_number: true } }] };
    rows[321] = { signers: [{ signer_id: emailOf(321) }], render_data: { not_a_token: 'x' } };

    const started = await acme.esign.POST('/v1.1/sites/{site_id}/bulk_sends', {
      params: { path: { site_id: acme.site } },
      body: {
        contracts: [template],
        send: true,
        rows: rows as never,
      },
    });
    assert.equal(started.response.status, 202, JSON.stringify(started.error ?? null));
    const bulk = started.data!;
    assert.equal(bulk.rows_total, ROWS);
    assert.ok(started.response.headers.get('location')?.endsWith(`/v1.1/bulk_sends/${bulk.id}`));

    // Mid-way: some rows made, many still to go. Then the requests service dies outright.
    const atKill = await eventually(
      async () => {
        const p = await progress(bulk.id);
        return p.created >= 60 ? p : undefined;
      },
      240_000,
      20,
    );
    await system.services.requests.stop('SIGKILL');
    assert.ok(atKill.created < ROWS - 3, `killed mid-way (${atKill.created} made)`);
    await system.restart('requests');

    const done = await eventually(
      async () => {
        const p = await progress(bulk.id);
        return p.state === 'completed' ? p : undefined;
      },
      480_000,
      250,
    );
    console.log(
      `      killed after ${atKill.created} of ${ROWS} rows; completed: ${done.created} made, ${done.sent} sent`,
    );
    assert.deepEqual(
      [done.created, done.sent, done.failed],
      [497, 497, 3],
      JSON.stringify(done.failures.slice(0, 4)),
    );
    assert.deepEqual(
      done.failures.map((f) => [f.row, f.request_id, f.errors.map((e) => e.path)]),
      [
        [7, null, ['rows[7].signers[0].signer_id']],
        [123, null, ['rows[123].signers[0].signer_id']],
        [321, null, ['rows[321].render_data.not_a_token']],
      ],
    );
    const ids = done.requests.map((r) => r.request_id);
    assert.equal(new Set(ids).size, 497, 'one Request per valid row');

    // The Site's list of bulk sends (ADR 3440) names it with the same counts and its template.
    const bulks = ok(
      await acme.esign.GET('/v1.1/sites/{site_id}/bulk_sends', { params: { path: { site_id: acme.site } } }),
      200,
      'bulk sends',
    );
    assert.deepEqual(
      bulks.data.map((b) => [
        b.id,
        b.state,
        b.rows_total,
        b.created,
        b.sent,
        b.failed,
        b.contracts.map((c) => c.id),
      ]),
      [[bulk.id, 'completed', ROWS, 497, 497, 3, [template]]],
    );

    // Exactly 497 Requests on the Site: none made twice by the restart.
    const listed = ok(
      await acme.esign.GET('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site }, query: { per_page: 1 } },
      }),
      200,
      'list',
    );
    assert.equal(listed.total_count, 497);
    // ...all of them the bulk send's, listed by it (ADR 3440), and sent; filtered by template too.
    const made = ok(
      await acme.esign.GET('/v1.1/sites/{site_id}/requests', {
        params: {
          path: { site_id: acme.site },
          query: { bulk_send_id: bulk.id, state: 'sent', contract_id: template, per_page: 1 },
        },
      }),
      200,
      'the bulk send’s Requests',
    );
    assert.equal(made.total_count, 497);
    assert.ok(ids.includes(made.data[0]!.id));
    const byTemplate = ok(
      await acme.esign.GET('/v1.1/sites/{site_id}/bulk_sends', {
        params: { path: { site_id: acme.site }, query: { contract_id: template } },
      }),
      200,
      'bulk sends by template',
    );
    assert.deepEqual(
      byTemplate.data.map((b) => b.id),
      [bulk.id],
    );

    // Every valid row's signer got exactly one e-mail.
    const wanted = new Set(
      Array.from({ length: ROWS }, (_, i) => i)
        .filter((i) => ![7, 123, 321].includes(i))
        .map(emailOf),
    );
    const counts = () => {
      const n = new Map<string, number>();
      for (const mail of system.smtp.received)
        for (const to of mail.to) if (wanted.has(to)) n.set(to, (n.get(to) ?? 0) + 1);
      return n;
    };
    await eventually(() => Promise.resolve(counts().size === wanted.size ? true : undefined), 300_000, 200);
    await sleep(2000);
    const twice = [...counts()].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'nobody gets two e-mails');

    // The 497 Requests it made, cancelled in one call (ADR 3480), then none left waiting.
    const cancelled = ok(
      await acme.esign.POST('/v1.1/bulk_sends/{bulk_send_id}/cancel_requests', {
        params: { path: { bulk_send_id: bulk.id } },
      }),
      200,
      'cancel its Requests',
    );
    assert.deepEqual(cancelled, { bulk_send_id: bulk.id, cancelled: 497, already_closed: 0 });
    const byState = async (state: 'sent' | 'cancelled') =>
      ok(
        await acme.esign.GET('/v1.1/sites/{site_id}/requests', {
          params: { path: { site_id: acme.site }, query: { bulk_send_id: bulk.id, state, per_page: 1 } },
        }),
        200,
        `its ${state} Requests`,
      ).total_count;
    assert.deepEqual([await byState('sent'), await byState('cancelled')], [0, 497]);
  });
});
