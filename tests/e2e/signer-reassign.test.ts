// A signer asks someone else to sign in their place (ADRs 3560, 3630), through the whole system: the
// sender's allow_reassign on the create or turned on after the send, the form on the page the e-mail opened (through the
// gateway, its answers checked against the OpenAPI document), the new signer's invitation and
// the creating user's notice by e-mail (requests' outbox, RabbitMQ, the notifier, SMTP).
import assert from 'node:assert/strict';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import { conformingFetch } from './support/conformance.js';
import {
  agreementRequest,
  clientOf,
  executionUrlIn,
  mailsTo,
  ok,
  publishedAgreement,
  unique,
  uniqueMobile,
  waitForMail,
  type ClientOf,
} from './support/flow.js';
import { postSignerForm } from './support/signer.js';

/** The hidden inputs of the page's form posting to `/sign/reassign`, with `email` and `note` added. */
const reassignForm = (page: string, email: string, note: string): URLSearchParams => {
  const form = /<form\b[^>]*action="[^"]*\/sign\/reassign"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  if (form === null) throw new Error(`no reassign form on the page:\n${page.slice(0, 1500)}`);
  const body = new URLSearchParams();
  for (const m of form[1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    body.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  body.set('email', email);
  body.set('note', note);
  return body;
};

describe('end to end through the gateway: a signer asks someone else to sign in their place', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_signer_reassign' });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
  });

  it('passes the Request on from the page: the new signer invited, the creator told, the old link dead', async () => {
    const run = unique();
    const jane = `jane-${run}@example.com`;
    const sam = `sam-${run}@example.com`;
    const draft = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: {
          ...agreementRequest(template, { email: jane, mobile: uniqueMobile() }),
          allow_reassign: true,
        },
      }),
      201,
      'create',
    );
    assert.equal(draft.allow_reassign, true);
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    const link = executionUrlIn((await waitForMail(system, jane)).mail.text ?? '');
    const page = await (await conformingFetch(link)).text();
    const note = 'I am on leave this month.\nSam signs for the team.';
    const answer = await postSignerForm(new URL(link), '/sign/reassign', reassignForm(page, sam, note));
    assert.equal(answer.status, 200, answer.page.slice(0, 500));
    assert.match(answer.page, /You asked someone else to sign/);

    const invited = await waitForMail(system, sam);
    // They hear who asked them, and the note (ADR 3630).
    assert.match(
      invited.mail.text ?? '',
      new RegExp(`${jane.replace(/[.]/g, '\\.')} asked you to sign in their place`),
    );
    assert.match(
      invited.mail.text ?? '',
      new RegExp(
        `A note from ${jane.replace(/[.]/g, '\\.')}:\n> I am on leave this month\\.\n> Sam signs for the team\\.`,
      ),
    );
    const theirs = executionUrlIn(invited.mail.text ?? '');
    assert.equal((await conformingFetch(theirs)).status, 200, 'their link opens');
    assert.equal((await conformingFetch(link)).status, 410, 'Jane’s no longer does');
    const told = await eventually(
      () =>
        Promise.resolve(
          mailsTo(system, acme.tenant.user.email).find((m) =>
            /^Someone else will sign:/.test(m.mail.subject ?? ''),
          ),
        ),
      15_000,
    );
    assert.match(told.mail.text ?? '', new RegExp(`asked ${sam.replace(/[.]/g, '\\.')} to sign`));
    assert.match(told.mail.text ?? '', /: I am on leave this month\. Sam signs for the team\./, 'the note');
    assert.match(told.mail.text ?? '', new RegExp(`/app/requests/${draft.id}`), 'the Request’s page');
  });

  it('turns it on after the send with PATCH, checked against the OpenAPI document, and the page offers it', async () => {
    const run = unique();
    const kim = `kim-${run}@example.com`;
    const draft = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: agreementRequest(template, { email: kim, mobile: uniqueMobile() }),
      }),
      201,
      'create',
    );
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    const link = executionUrlIn((await waitForMail(system, kim)).mail.text ?? '');
    assert.doesNotMatch(await (await conformingFetch(link)).text(), /\/sign\/reassign/, 'not offered yet');
    const changed = ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}', {
        params: { path: { request_id: draft.id } },
        body: { allow_reassign: true },
      }),
      200,
      'update',
    );
    assert.equal(changed.allow_reassign, true);
    assert.match(await (await conformingFetch(link)).text(), /action="[^"]*\/sign\/reassign"/, 'offered now');
  });
});
