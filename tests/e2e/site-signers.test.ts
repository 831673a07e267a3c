// A Site's signers through the whole system (ADR 3200): a client corrects a signer's
// address before sending, through the gateway and the typed client, and the e-mail goes to
// the corrected address; another Site's token reaches none of it.
import assert from 'node:assert/strict';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { expectStatus } from './support/client.js';
import {
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

describe('end to end through the gateway: a Site’s signers (ADR 3200)', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let globex: ClientOf;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_site_signers' });
    acme = clientOf(system, await system.createTenant('Acme'));
    globex = clientOf(system, await system.createTenant('Globex'));
  });
  after(async () => {
    await system?.stop();
  });

  it('makes a signer from its signer_id alone, and refuses a detail a create would refuse, naming it', async () => {
    const mobile = uniqueMobile();
    const path = { site_id: acme.site, signer_id: mobile };
    const made = ok(
      await acme.esign.PUT('/v1.1/sites/{site_id}/signers/{signer_id}', { params: { path } }),
      201,
      'put',
    );
    assert.deepEqual([made.signer_id, made.email, made.mobile_number], [mobile, null, `1${mobile}`]);
    const refused = await acme.esign.PUT('/v1.1/sites/{site_id}/signers/{signer_id}', {
      params: { path },
      body: { signer: { email: 'not an address' } },
    });
    assert.equal(refused.response.status, 422);
    assert.deepEqual(
      refused.error?.errors?.map((e) => e.path),
      ['signer.email'],
    );
    // Named by no Request, it can be deleted; then it is gone.
    const deleted = await acme.esign.DELETE('/v1.1/sites/{site_id}/signers/{signer_id}', {
      params: { path },
    });
    assert.equal(deleted.response.status, 204);
    expectStatus(await acme.api.get(`/v1.1/sites/${acme.site}/signers/${mobile}`), 404);
  });

  it('corrects a draft’s signer before it is sent, and the e-mail goes to the corrected address', async () => {
    const template = await publishedAgreement(acme);
    const signerId = `Customer ${unique()} (A)`;
    const typo = `jane-${unique()}@exmaple.com`;
    const right = `jane-${unique()}@example.com`;
    const draft = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: {
          contracts: [template],
          signers: [{ signer_id: signerId, signer: { email: typo }, send_to: { email: true } }],
          fields: ['full_name', 'signature', 'witness_signature'].map((name) => ({
            name,
            assigned_to: signerId,
          })),
          render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
        },
      }),
      201,
      'create',
    );
    const path = { site_id: acme.site, signer_id: signerId };

    const corrected = ok(
      await acme.esign.PUT('/v1.1/sites/{site_id}/signers/{signer_id}', {
        params: { path },
        body: { signer: { email: right } },
      }),
      200,
      'put',
    );
    assert.deepEqual([corrected.signer_id, corrected.email], [signerId, right]);
    const read = ok(
      await acme.esign.GET('/v1.1/sites/{site_id}/signers/{signer_id}', { params: { path } }),
      200,
      'get',
    );
    assert.deepEqual(read, corrected);
    const listed = ok(
      await acme.esign.GET('/v1.1/sites/{site_id}/signers', { params: { path: { site_id: acme.site } } }),
      200,
      'list',
    );
    assert.deepEqual(
      listed.data.filter((s) => s.signer_id === signerId),
      [corrected],
    );

    const view = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: draft.id } } }),
      200,
      'draft',
    );
    assert.equal(view.signers[0]?.email, right, 'the draft follows the Site’s signer');
    expectStatus(await acme.api.post(`/v1.1/requests/${draft.id}/send`), 200);
    const mail = await waitForMail(system, right);
    assert.ok(mail !== undefined);
    assert.deepEqual(mailsTo(system, typo), []);
    const kept = await acme.esign.DELETE('/v1.1/sites/{site_id}/signers/{signer_id}', { params: { path } });
    assert.deepEqual(
      [kept.response.status, kept.error?.code],
      [409, 'signer_in_use'],
      'a Request names them',
    );

    // Globex's token reaches none of Acme's signers, and cannot make one there.
    const foreign = `/v1.1/sites/${acme.site}/signers/${encodeURIComponent(signerId)}`;
    expectStatus(await globex.api.get(foreign), 404);
    expectStatus(await globex.api.call('PUT', foreign, { signer: { email: 'x@example.com' } }), 404);
    expectStatus(await globex.api.get(`/v1.1/sites/${acme.site}/signers`), 404);
    const after = ok(
      await acme.esign.GET('/v1.1/sites/{site_id}/signers/{signer_id}', { params: { path } }),
      200,
      'get',
    );
    assert.equal(after.email, right);
  });

  it('adds a forgotten signer to a draft and removes a wrong one (ADR 3280): only the right ones are e-mailed', async () => {
    const template = await publishedAgreement(acme);
    const wrong = `wrong-${unique()}@example.com`;
    const first = `first-${unique()}@example.com`;
    const forgotten = `forgotten-${unique()}@example.com`;
    const draft = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: {
          contracts: [template],
          signers: [first, wrong].map((id) => ({ signer_id: id, send_to: { email: true } })),
          fields: [
            { name: 'full_name', assigned_to: first },
            { name: 'signature', assigned_to: first },
            { name: 'witness_signature', assigned_to: wrong },
          ],
          render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
        },
      }),
      201,
      'create',
    );
    const request_id = draft.id;
    const added = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/signers', {
        params: { path: { request_id } },
        body: { signer_id: forgotten, send_to: { email: true } },
      }),
      201,
      'add',
    );
    assert.deepEqual(
      added.signers.map((s) => s.signer_id),
      [first, wrong, forgotten],
    );
    const removed = ok(
      await acme.esign.DELETE('/v1.1/requests/{request_id}/signers/{signer_id}', {
        params: { path: { request_id, signer_id: wrong } },
      }),
      200,
      'remove',
    );
    assert.deepEqual(
      removed.fields.map((f) => [f.name, f.assigned_to]),
      [
        ['full_name', first],
        ['signature', first],
        ['witness_signature', null],
      ],
    );
    // Globex's token changes none of it.
    expectStatus(await globex.api.post(`/v1.1/requests/${request_id}/signers`, { signer_id: 'x' }), 404);
    expectStatus(await globex.api.call('DELETE', `/v1.1/requests/${request_id}/signers/${first}`), 404);

    expectStatus(await acme.api.post(`/v1.1/requests/${request_id}/send`), 422, 'a field has no signer');
    ok(
      await acme.esign.PATCH('/v1.1/requests/{request_id}', {
        params: { path: { request_id } },
        body: {
          fields: [
            { name: 'full_name', assigned_to: first },
            { name: 'signature', assigned_to: first },
            { name: 'witness_signature', assigned_to: forgotten },
          ],
        },
      }),
      200,
      'assign',
    );
    expectStatus(await acme.api.post(`/v1.1/requests/${request_id}/send`), 200);
    await waitForMail(system, first);
    const mail = await waitForMail(system, forgotten);
    assert.equal(
      executionUrlIn(mail?.mail.text ?? ''),
      added.signers[2]!.request_url,
      'the link the add answered',
    );
    assert.deepEqual(mailsTo(system, wrong), []);
    const late = await acme.esign.POST('/v1.1/requests/{request_id}/signers', {
      params: { path: { request_id } },
      body: { signer_id: wrong },
    });
    assert.deepEqual([late.response.status, late.error?.code], [409, 'invalid_state']);
  });
});
