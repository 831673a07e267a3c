// Correcting how a signer of a sent Request is reached (ADR 3140), through the gateway and
// the typed client, against the whole system: the invitation went to a mistyped address;
// the client corrects it; the signer gets a new link at the right address, the old link
// stops opening, and the new one signs; someone else put in a signer's place (ADR 3550).
// Then what a client gets wrong, refused by field.
import assert from 'node:assert/strict';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import {
  agreementRequest,
  clientOf,
  clientRef,
  executionUrlIn,
  mailsTo,
  ok,
  publishedAgreement,
  smsTo,
  unique,
  uniqueMobile,
  waitForMail,
  waitForSms,
  type ClientOf,
  type RequestBody,
} from './support/flow.js';
import { signAt } from './support/signer.js';

interface Problem {
  readonly code: string;
  readonly errors?: ReadonlyArray<{ path: string; message: string }>;
}

describe('end to end through the gateway: correcting a signer of a sent Request', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_signer_fix' });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
  });

  const created = async (email: string, mobile = uniqueMobile()) =>
    ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: agreementRequest(template, { email, mobile }),
      }),
      201,
      'create',
    );
  const path = (id: string, signerId: string) =>
    `/v1.1/requests/${id}/signers/${encodeURIComponent(signerId)}`;

  it('a mistyped address: corrected, a new link e-mailed to the right one, the old link dead, then signed', async () => {
    const run = unique();
    const mistyped = `jane-${run}@exmaple.com`;
    const right = `jane-${run}@example.com`;
    const draft = await created(mistyped);
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    const old = executionUrlIn((await waitForMail(system, mistyped)).mail.text ?? '');
    const signerId = clientRef(mistyped);

    const corrected = ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}/signers/{signer_id}', {
        params: { path: { request_id: draft.id, signer_id: signerId } },
        body: { signer: { email: right.toUpperCase() } },
      }),
      200,
      'correct',
    );
    const jane = corrected.signers.find((s) => s.signer_id === signerId)!;
    assert.equal(jane.email, right, 'kept lower-case, as every address');
    assert.notEqual(jane.request_url, old);
    const told = await eventually(() => Promise.resolve(mailsTo(system, right)[0]), 15_000);
    assert.equal(executionUrlIn(told.mail.text ?? ''), jane.request_url);
    assert.equal(mailsTo(system, mistyped).length, 1, 'nothing more to the wrong address');
    assert.equal(corrected.remind_count, 0, 'not counted as a reminder');

    // The same details again: nothing changes, nothing is sent.
    const again = ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}/signers/{signer_id}', {
        params: { path: { request_id: draft.id, signer_id: signerId } },
        body: { signer: { email: right } },
      }),
      200,
      'the same again',
    );
    assert.equal(again.signers.find((s) => s.signer_id === signerId)!.request_url, jane.request_url);

    const replaced = await signAt(old, 'Someone Else');
    assert.equal(replaced.pageStatus, 410);
    assert.match(replaced.page, /This link was replaced/);
    const signed = await signAt(jane.request_url, 'Jane Q. Client');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(mailsTo(system, right).length, 1, 'told once');
  });

  it('someone else in the signer’s place: invited at their address, the one replaced told, the old link dead, then signed (ADR 3550)', async () => {
    const run = unique();
    const jane = `jane-${run}@example.com`;
    const sam = `sam-${run}@example.com`;
    const draft = await created(jane);
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    const old = executionUrlIn((await waitForMail(system, jane)).mail.text ?? '');

    const replaced = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/signers/{signer_id}/replace', {
        params: { path: { request_id: draft.id, signer_id: clientRef(jane) } },
        body: {
          signer_id: clientRef(sam),
          signer: { email: sam },
          send_to: { email: true },
          message: 'Jane is away this month: please sign for the household.',
        },
      }),
      200,
      'replace',
    );
    assert.deepEqual(
      replaced.signers.map((s) => [s.signer_id, s.email, s.state]),
      [
        [clientRef(sam), sam, 'pending'],
        [draft.signers[1]!.signer_id, null, 'pending'],
      ],
    );
    const samUrl = replaced.signers[0]!.request_url;
    const invitation = await waitForMail(system, sam);
    assert.equal(executionUrlIn(invitation.mail.text ?? ''), samUrl);
    assert.doesNotMatch(String(invitation.mail.subject), /^Reminder/, 'an invitation, not a reminder');
    assert.match(invitation.mail.text ?? '', /Jane is away this month: please sign for the household\./);
    // Jane, who was invited, hears that she need not sign, with no link.
    const released = await eventually(
      () =>
        Promise.resolve(mailsTo(system, jane).find((m) => /^No longer needed:/.test(m.mail.subject ?? ''))),
      15_000,
    );
    assert.match(released.mail.text ?? '', /asked someone else to sign .* in your place/);
    assert.doesNotMatch(released.mail.text ?? '', /https?:\/\//, 'no link: the old one would not open');

    const gone = await signAt(old, 'Jane Q. Client');
    assert.equal(gone.pageStatus, 410);
    assert.match(gone.page, /Someone else was asked to sign this document in your place/);
    const signed = await signAt(samUrl, 'Sam Signer');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    const history = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/events', {
        params: { path: { request_id: draft.id }, query: { type: 'request.signer_updated' } },
      }),
      200,
      'history',
    );
    assert.deepEqual(
      history.data.map((e) => {
        const data = e.data as { signer_id: string; previous: { signer_id?: string } };
        return [data.signer_id, data.previous.signer_id];
      }),
      [[clientRef(sam), clientRef(jane)]],
    );
  });

  it('a new mobile number and a channel without notifying: stored, a new link, no text sent', async () => {
    const email = `sms-${unique()}@example.com`;
    const mobile = uniqueMobile();
    const draft = await created(email, mobile);
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    await eventually(() => Promise.resolve(smsTo(system, `+1${mobile}`)[0]), 15_000);
    const fixed = uniqueMobile();
    ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}/signers/{signer_id}', {
        params: { path: { request_id: draft.id, signer_id: mobile } },
        body: { signer: { mobile_number: fixed }, send_to: { email: true }, notify: false },
      }),
      200,
      'correct',
    );
    // Read back: what was stored, not what the call answered.
    const stored = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: draft.id } } }),
      200,
      'get',
    );
    const signer = stored.signers.find((s) => s.signer_id === mobile)!;
    assert.equal(signer.mobile_number, `1${fixed}`);
    assert.deepEqual(signer.send_to, { email: true, mobile_number: true });
    assert.notEqual(signer.request_url, draft.signers.find((s) => s.signer_id === mobile)!.request_url);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(smsTo(system, `+1${fixed}`).length, 0);
  });

  it('a cancel with a reason tells the signers who were told: e-mail with the reason, a text, links dead (ADR 3500)', async () => {
    const email = `void-${unique()}@example.com`;
    const mobile = uniqueMobile();
    const draft = await created(email, mobile);
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    await Promise.all([waitForMail(system, email), waitForSms(system, `+1${mobile}`)]);
    const reason = 'The rent was wrong.\nA corrected agreement follows.';
    const cancelled = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/cancel', {
        params: { path: { request_id: draft.id } },
        body: { reason, notify_signers: true },
      }),
      200,
      'cancel',
    );
    assert.equal(cancelled.state, 'cancelled');
    const told = await eventually(
      () => Promise.resolve(mailsTo(system, email).find((m) => /^Cancelled:/.test(m.mail.subject ?? ''))),
      15_000,
    );
    assert.match(
      told.mail.text ?? '',
      /^Acme site \w+ cancelled the request to sign "Services agreement \w+"\. Nothing more is needed from you, and your signing link no longer works\.$/m,
    );
    assert.match(
      told.mail.text ?? '',
      /The reason given: The rent was wrong\. A corrected agreement follows\./,
    );
    assert.ok(!(told.mail.text ?? '').includes('/sign?'), 'no link to a dead signing page');
    const text = await eventually(() => Promise.resolve(smsTo(system, `+1${mobile}`)[1]), 15_000);
    assert.match(
      text.body,
      /^Acme site \w+ cancelled the request to sign "Services agreement \w+"\. Nothing more is needed from you\.$/,
    );
    const dead = await fetch(draft.signers[0]!.request_url);
    assert.equal(dead.status, 410);
    assert.match(
      await dead.text(),
      /The reason given: The rent was wrong\.\s+A corrected agreement follows\./,
    );
    const history = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/events', {
        params: { path: { request_id: draft.id }, query: { order: 'desc' } },
      }),
      200,
      'history',
    );
    assert.deepEqual(history.data[0]!.data, {
      request_id: draft.id,
      previous_state: 'sent',
      reason,
      signers_notified: true,
    });
  });

  it('refuses what it cannot do, by field and state, and changes nothing', async () => {
    const email = `refused-${unique()}@example.com`;
    const draft = await created(email);
    const signerId = clientRef(email);
    const draftAnswer = await acme.api.call<Problem>('PATCH', path(draft.id, signerId), {
      signer: { email: 'a@b.co' },
    });
    assert.equal(draftAnswer.status, 409, 'a draft shows the Site’s details until it is sent');
    assert.equal(draftAnswer.body.code, 'invalid_state');

    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    const cases: Array<[unknown, string]> = [
      [{}, '(body)'],
      [{ signer: { email: 'not an address' } }, 'signer.email'],
      [{ signer: { mobile_number: '4165550123' } }, 'signer.mobile_number'],
      [{ send_to: { email: 'yes' } }, 'send_to.email'],
      [{ signer: { name: 'Jane' } }, 'signer.name'],
    ];
    for (const [body, field] of cases) {
      const refused = await acme.api.call<Problem>('PATCH', path(draft.id, signerId), body);
      assert.equal(refused.status, 422, JSON.stringify(body));
      assert.deepEqual(
        refused.body.errors?.map((e) => e.path),
        [field],
        JSON.stringify(body),
      );
    }
    const unknown = await acme.api.call<Problem>('PATCH', path(draft.id, 'nobody'), {
      signer: { email: 'a@b.co' },
    });
    assert.equal(unknown.status, 404);
    const view = expectStatus(await acme.api.get<RequestBody>(`/v1.1/requests/${draft.id}`), 200).body;
    assert.equal(view.signers.find((s) => s.signer_id === signerId)!.email, email, 'unchanged');
  });
});
