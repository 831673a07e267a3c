// Issue #22, test mode, through the gateway against the whole system: a test-mode Request
// is completed by following the Execution URL read from GET /v1.1/requests/:id/messages,
// nothing reaches the SMTP server or the Twilio stand-in, and every page of the executed
// PDF carries the mark; a test-only token is refused a real Request.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { createEsignClient, type Schemas } from '@esign/client';
import { conformingFetch } from './support/conformance.js';
import { clientOf, ok, publishedAgreement, unique, type ClientOf } from './support/flow.js';
import { signAt } from './support/signer.js';

const run = promisify(execFile);

type TestMessage = Schemas['TestMessageView'];

describe('end to end through the gateway: test mode (issue #22)', function () {
  this.timeout(240_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;
  let dir: string;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_testmode' });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
    dir = await mkdtemp(join(tmpdir(), 'e2e-testmode-'));
  });
  after(async () => {
    await system?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const messagesOf = async (requestId: string): Promise<TestMessage[]> =>
    ok(
      await acme.esign.GET('/v1.1/requests/{request_id}/messages', {
        params: { path: { request_id: requestId } },
      }),
      200,
      'messages',
    ).data;

  const messageWhere = (requestId: string, match: (m: TestMessage) => boolean) =>
    eventually(async () => (await messagesOf(requestId)).find(match), 60_000, 200);

  it('completes a test Request from the link in its kept e-mail; nothing is sent; the PDF is marked', async () => {
    const email = `test-mode-${unique()}@example.com`;
    const mobile = '2025550187';
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: {
          test_mode: true,
          contracts: [template],
          signers: [
            {
              signer_id: email,
              signer: { email, mobile_number: mobile },
              send_to: { email: true, mobile_number: true },
            },
          ],
          fields: [
            { name: 'full_name', assigned_to: email },
            { name: 'witness_signature', assigned_to: email },
            { name: 'signature', assigned_to: email },
          ],
          render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
        },
      }),
      201,
      'create',
    );
    assert.equal(created.test_mode, true);
    ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'send',
    );

    const mail = await messageWhere(
      created.id,
      (m) => m.channel === 'email' && m.event_type === 'request.sent',
    );
    const sms = await messageWhere(created.id, (m) => m.channel === 'sms' && m.event_type === 'request.sent');
    const signerUrl = created.signers[0]!.request_url;
    assert.equal(mail.to, email);
    assert.equal(mail.execution_url, signerUrl, 'the kept e-mail carries the Execution URL');
    assert.ok(mail.body.includes(signerUrl) && (mail.html ?? '').length > 0 && (mail.subject ?? '') !== '');
    assert.equal(sms.to, `+1${mobile}`);
    assert.ok(sms.body.includes(signerUrl), 'the kept SMS carries it too');

    // The integrator's test follows the link it read, as a signer would.
    const signed = await signAt(mail.execution_url, 'Test Signer');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    const done = ok(
      await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: created.id } } }),
      200,
      'get',
    );
    assert.equal(done.state, 'completed');

    // The completion notice is kept as well: once it is there, the notifier has handled every
    // event of this Request, and none of its messages reached a provider.
    await messageWhere(created.id, (m) => m.event_type === 'notice.completed');
    assert.equal(
      system.smtp.received.filter((m) => m.to.some((to) => to.includes(email))).length,
      0,
      'no e-mail reached the SMTP server',
    );
    assert.equal(
      system.twilio.requests.filter((r) => r.to === `+1${mobile}`).length,
      0,
      'no SMS reached Twilio',
    );

    const res = await acme.esign.GET('/v1.1/requests/{request_id}/download', {
      params: { path: { request_id: created.id } },
      parseAs: 'arrayBuffer',
    });
    assert.equal(res.response.status, 200);
    const file = join(dir, 'executed.pdf');
    await writeFile(file, Buffer.from(res.data!));
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
    const pages = stdout.split('\f').filter((p) => p.trim() !== '');
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    pages.forEach((page, i) =>
      assert.ok(page.includes('TEST — not legally binding'), `page ${i + 1} carries the mark`),
    );

    // Lists tell test Requests from real ones.
    const listed = async (testMode: 'true' | 'false') =>
      ok(
        await acme.esign.GET('/v1.1/sites/{site_id}/requests', {
          params: { path: { site_id: acme.site }, query: { test_mode: testMode } },
        }),
        200,
        'list',
      ).data.map((r) => r.id);
    assert.ok((await listed('true')).includes(created.id));
    assert.ok(!(await listed('false')).includes(created.id));
  });

  it('a test-only token creates test Requests and is refused a real one (403 test_mode_only_token)', async () => {
    const issued = (await system.admin('create-token', '--app', acme.tenant.appId, '--test-mode-only')) as {
      token: { test_mode_only: boolean };
      access_token: string;
    };
    assert.equal(issued.token.test_mode_only, true, 'the token record says it is test-only');
    const testOnly = createEsignClient({
      baseUrl: system.gatewayUrl,
      accessToken: issued.access_token,
      fetch: (request) => conformingFetch(request),
    });
    const body = {
      contracts: [template],
      signers: [{ signer_id: `real-${unique()}@example.com` }],
    };
    const refused = await testOnly.POST('/v1.1/sites/{site_id}/requests', {
      params: { path: { site_id: acme.site } },
      body,
    });
    assert.equal(refused.response.status, 403);
    const problem = refused.error as { code?: string; errors?: Array<{ path: string }> };
    assert.equal(problem.code, 'test_mode_only_token');
    assert.deepEqual(
      problem.errors?.map((e) => e.path),
      ['test_mode'],
    );
    const allowed = ok(
      await testOnly.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: { ...body, test_mode: true },
      }),
      201,
      'create as test',
    );
    assert.equal(allowed.test_mode, true);
  });
});
