// The failure paths a client of the spec's flow meets, through the gateway against the
// whole system (client-flow.test.ts has the flow itself): the send preconditions, another
// site's token, a principal not signed for the service, a tampered Execution URL, a
// cancelled Request, a reissued link.
import assert from 'node:assert/strict';
import { PRINCIPAL_AUDIENCES, PRINCIPAL_HEADER } from '@esign/contracts';
import { eventually, principalKeys, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import { clientFlowFixture } from './support/client-flow-fixture.js';
import { conformingFetch } from './support/conformance.js';
import {
  agreementRequest,
  executionUrlIn,
  mailsTo,
  unique,
  uniqueMobile,
  waitForMail,
  ok,
  type ClientOf,
  type RequestBody,
} from './support/flow.js';
import { signAt } from './support/signer.js';

interface Problem {
  readonly code: string;
  readonly status: number;
  readonly errors?: ReadonlyArray<{ path: string; message: string }>;
  readonly unassigned_fields?: readonly string[];
}

describe('end to end through the gateway: the failure paths a client meets', function () {
  this.timeout(120_000);
  const flow = clientFlowFixture('e2e_flow_failures');
  const { create, get, list } = flow;
  let system: EsignSystem;
  let acme: ClientOf;
  let globex: ClientOf;
  let template: number;
  before(() => ({ system, acme, globex, template } = flow.ctx));

  it('refuses a Request without contracts or signers, naming the field', async () => {
    const noContracts = await acme.api.post<Problem>(`/v1.1/sites/${acme.site}/requests`, {
      contracts: [],
      signers: [{ signer_id: 'x@example.com' }],
    });
    assert.equal(noContracts.status, 422, noContracts.text);
    assert.ok(
      noContracts.body.errors?.some((e) => e.path === 'contracts'),
      noContracts.text,
    );
    const noSigners = await acme.api.post<Problem>(`/v1.1/sites/${acme.site}/requests`, {
      contracts: [template],
      signers: [],
    });
    assert.equal(noSigners.status, 422, noSigners.text);
    assert.ok(
      noSigners.body.errors?.some((e) => e.path === 'signers'),
      noSigners.text,
    );
  });

  it('refuses to send while a field is unassigned, naming it, and notifies nobody', async () => {
    const email = `unassigned-${unique()}@example.com`;
    // The signer is identified by a GUID, not an address, so nothing is auto-assigned.
    const created = await create({
      contracts: [template],
      signers: [{ signer_id: `guid-${unique()}`, signer: { email }, send_to: { email: true } }],
      fields: [{ name: 'full_name', default_value: 'Pre-filled' }],
    });
    const refused = await acme.api.post<Problem>(`/v1.1/requests/${created.id}/send`);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'send_preconditions_failed');
    assert.deepEqual([...(refused.body.unassigned_fields ?? [])].sort(), [
      'full_name',
      'signature',
      'witness_signature',
    ]);
    assert.equal((await get(created.id)).state, 'draft', 'nothing changed');
    const live = await conformingFetch(created.signers[0]!.request_url);
    assert.equal(live.status, 409, 'the Execution URL did not go live');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(mailsTo(system, email).length, 0, 'no e-mail for a Request that was not sent');
  });

  it('refuses a second send of the same Request', async () => {
    const created = await create(
      agreementRequest(template, { email: `twice-${unique()}@example.com`, mobile: uniqueMobile() }),
    );
    expectStatus(await acme.api.post(`/v1.1/requests/${created.id}/send`), 200);
    const again = await acme.api.post<Problem>(`/v1.1/requests/${created.id}/send`);
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'invalid_state');
  });

  it('answers another site’s token exactly as for a Request that does not exist', async () => {
    const email = `scoped-${unique()}@example.com`;
    const created = await create(agreementRequest(template, { email, mobile: uniqueMobile() }));
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/send'],
      ['POST', '/cancel'],
      ['POST', '/remind'],
      ['GET', '/download'],
    ] as const) {
      const theirs = await globex.api.call<Problem>(method, `/v1.1/requests/${created.id}${suffix}`);
      const none = await globex.api.call<Problem>(method, `/v1.1/requests/${missing}${suffix}`);
      assert.equal(theirs.status, 404, `${method} ${suffix}: ${theirs.text}`);
      assert.equal(theirs.body.code, none.body.code, `${method} ${suffix}: same as a missing one`);
      assert.ok(!theirs.text.includes(email) && !theirs.text.includes(acme.tenant.site.name));
    }
    const listed = await globex.api.get<Problem>(`/v1.1/sites/${acme.site}/requests`);
    assert.equal(listed.status, 404, listed.text);
    const createdThere = await globex.api.post<Problem>(
      `/v1.1/sites/${acme.site}/requests`,
      agreementRequest(template, { email, mobile: uniqueMobile() }),
    );
    assert.equal(createdThere.status, 404, createdThere.text);
    // Nor may Globex use Acme's template on its own site.
    const borrowed = await globex.api.post<Problem>(
      `/v1.1/sites/${globex.site}/requests`,
      agreementRequest(template, { email, mobile: uniqueMobile() }),
    );
    assert.equal(borrowed.status, 422, borrowed.text);
    assert.equal((await get(created.id)).state, 'draft', 'Globex changed nothing');
  });

  it('M5: the services take only a principal the gateway signed for them, not one for another service or by another key', async () => {
    const sites = [{ id: acme.site, name: 'Acme' }];
    const principal = { sub: 'someone', token_id: 'some-token', sites };
    const direct = async (service: 'requests' | 'notifier', path: string, header: string) =>
      (await fetch(`${system.services[service].url}${path}`, { headers: { [PRINCIPAL_HEADER]: header } }))
        .status;
    const requestsPath = `/v1.1/sites/${acme.site}/requests`;
    const webhooksPath = `/v1.1/sites/${acme.site}/webhooks`;
    const forRequests = await system.principalKeys.sign(PRINCIPAL_AUDIENCES.requests, principal);
    const forNotifier = await system.principalKeys.sign(PRINCIPAL_AUDIENCES.notifier, principal);
    assert.equal(await direct('requests', requestsPath, forRequests), 200);
    assert.equal(await direct('notifier', webhooksPath, forNotifier), 200);
    assert.equal(await direct('notifier', webhooksPath, forRequests), 401);
    assert.equal(await direct('requests', requestsPath, forNotifier), 401);
    const forged = await principalKeys().sign(PRINCIPAL_AUDIENCES.requests, principal);
    assert.equal(await direct('requests', requestsPath, forged), 401);
  });

  it('refuses a tampered Execution URL and signs nothing', async () => {
    const email = `tamper-${unique()}@example.com`;
    const created = await create(agreementRequest(template, { email, mobile: uniqueMobile() }));
    expectStatus(await acme.api.post(`/v1.1/requests/${created.id}/send`), 200);
    const url = new URL(executionUrlIn((await waitForMail(system, email)).mail.text ?? ''));
    const other = new URL(created.signers[1]!.request_url);
    const signature = url.searchParams.get('signature')!;
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
    const tampered = [
      (u: URL) => u.searchParams.set('signature', flip(signature)),
      // Alice's signature with the other signer's reference.
      (u: URL) => u.searchParams.set('s', other.searchParams.get('s')!),
      (u: URL) => u.searchParams.set('r', '00000000-0000-4000-8000-000000000000'),
      (u: URL) => u.searchParams.delete('signature'),
    ];
    for (const change of tampered) {
      const copy = new URL(url);
      change(copy);
      const outcome = await signAt(copy.toString(), 'Mallory');
      assert.ok([400, 403, 404].includes(outcome.pageStatus), `${copy.search}: ${outcome.pageStatus}`);
      assert.ok(!outcome.page.includes('Jane Q. Client'), 'the contract is never shown');
    }
    const view = await get(created.id);
    assert.ok(
      view.signers.every((s) => s.state !== 'signed'),
      'nobody signed',
    );
  });

  it('kills the Execution URLs of a cancelled Request', async () => {
    const email = `cancel-${unique()}@example.com`;
    const created = await create(agreementRequest(template, { email, mobile: uniqueMobile() }));
    expectStatus(await acme.api.post(`/v1.1/requests/${created.id}/send`), 200);
    const url = executionUrlIn((await waitForMail(system, email)).mail.text ?? '');
    const cancelled = expectStatus(
      await acme.api.post<RequestBody>(`/v1.1/requests/${created.id}/cancel`),
      200,
      'cancel',
    );
    assert.equal(cancelled.body.state, 'cancelled');
    const outcome = await signAt(url, 'Too Late');
    assert.equal(outcome.pageStatus, 410);
    assert.match(outcome.page, /cancelled/);
    const send = await acme.api.post<Problem>(`/v1.1/requests/${created.id}/send`);
    assert.equal(send.status, 409);
    assert.ok((await list('cancelled')).data.some((r) => r.id === created.id));
  });

  it('LOW 8: reissues one signer’s Execution URL and sends it; the old link says it was replaced', async () => {
    const email = `reissue-${unique()}@example.com`;
    const created = await create(agreementRequest(template, { email, mobile: uniqueMobile() }));
    expectStatus(await acme.api.post(`/v1.1/requests/${created.id}/send`), 200);
    const old = executionUrlIn((await waitForMail(system, email)).mail.text ?? '');
    const signerId = created.signers[0]!.signer_id;
    const after = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/signers/{signer_id}/execution_url', {
        params: { path: { request_id: created.id, signer_id: signerId } },
        body: { notify: true },
      }),
      200,
      'reissue',
    );
    const fresh = after.signers[0]!.request_url;
    assert.notEqual(fresh, old);
    // The new link arrives as a reminder to that signer alone.
    const second = await eventually(() => Promise.resolve(mailsTo(system, email)[1]), 15_000);
    assert.equal(executionUrlIn(second.mail.text ?? ''), fresh);
    const replaced = await signAt(old, 'Old Link');
    assert.equal(replaced.pageStatus, 410);
    assert.match(replaced.page, /This link was replaced/);
    const signed = await signAt(fresh, 'Jane Q. Client');
    assert.equal(signed.pageStatus, 200);
    assert.equal(signed.status, 303, 'signed with the new link');
    const again = await acme.api.post<Problem>(
      `/v1.1/requests/${created.id}/signers/${encodeURIComponent(signerId)}/execution_url`,
      {},
    );
    assert.equal(again.status, 409, 'a signer who signed keeps the link they signed with');
  });
});
