// A draft's make-up changed and a Request copied, through the gateway and the typed client,
// against the whole system: a draft's contracts added, removed (ADR 3300) and put in a new
// order (ADR 3310), then sent; a sent Request copied into a new draft (ADR 3330), which is
// sent with its own links.
import assert from 'node:assert/strict';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
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

describe('end to end through the gateway: a draft’s contracts changed, and a Request copied', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_draft_changes' });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
  });

  it('adds a forgotten contract to a draft, puts it first and removes the wrong one (ADRs 3300, 3310), then sends it', async () => {
    const email = `contracts-${unique()}@example.com`;
    const mobile = uniqueMobile();
    const wrong = await publishedAgreement(acme);
    const draft = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: { ...agreementRequest(wrong, { email, mobile }), render_data: {} },
      }),
      201,
      'create',
    );
    const path = { request_id: draft.id };
    const added = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/contracts', {
        params: { path },
        body: { contract_id: template },
      }),
      201,
      'add',
    );
    assert.deepEqual(added.contracts, [wrong, template]);
    const reordered = ok(
      await acme.esign.PUT('/v1.1/requests/{request_id}/contracts', {
        params: { path },
        body: { contract_ids: [template, wrong] },
      }),
      200,
      'reorder',
    );
    assert.deepEqual(reordered.contracts, [template, wrong]);
    const removed = ok(
      await acme.esign.DELETE('/v1.1/requests/{request_id}/contracts/{contract_id}', {
        params: { path: { ...path, contract_id: wrong } },
      }),
      200,
      'remove',
    );
    assert.deepEqual(removed.contracts, [template]);
    assert.deepEqual(removed.fields, added.fields, 'the two templates have the same fields: all stay');
    const last = await acme.esign.DELETE('/v1.1/requests/{request_id}/contracts/{contract_id}', {
      params: { path: { ...path, contract_id: template } },
    });
    assert.deepEqual([last.response.status, last.error?.code], [409, 'last_contract']);
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    await waitForMail(system, email);
  });

  it('copies a sent Request into a new draft, which is sent to its signer (ADR 3330)', async () => {
    const email = `copy-${unique()}@example.com`;
    const mobile = uniqueMobile();
    const source = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: agreementRequest(template, { email, mobile }),
      }),
      201,
      'create',
    );
    expectStatus(await acme.api.post(`/v1.1/requests/${source.id}/send`), 200);
    const copy = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/copy', {
        params: { path: { request_id: source.id } },
      }),
      201,
      'copy',
    );
    assert.notEqual(copy.id, source.id);
    assert.deepEqual(
      [copy.state, copy.contracts, copy.signers.map((s) => s.signer_id), copy.fields],
      ['draft', source.contracts, source.signers.map((s) => s.signer_id), source.fields],
    );
    expectStatus(await acme.api.post(`/v1.1/requests/${copy.id}/send`), 200);
    const link = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: copy.id } } }),
      200,
      'read',
    ).signers[0]!.request_url;
    // The source's e-mail came first; the copy's carries the copy's own link.
    await eventually(() =>
      Promise.resolve(mailsTo(system, email).find((m) => executionUrlIn(m.mail.text ?? '') === link)),
    );
  });
});
