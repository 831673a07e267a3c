// The sealed executed document through the gateway, against the whole system as `npm start`
// runs it (its requests service seals with a self-signed certificate made for the run):
// two downloads are the same bytes, poppler's pdfsig finds the seal valid and covering the
// whole file, and POST /v1.1/verify answers anyone without a token, rate-limited per
// client address by the gateway.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { conformingFetch } from './support/conformance.js';
import { clientOf, ok, publishedAgreement, unique, type ClientOf } from './support/flow.js';
import { signAt } from './support/signer.js';

const run = promisify(execFile);

describe('end to end through the gateway: the sealed executed document and its verification', function () {
  this.timeout(180_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;
  let dir: string;

  before(async () => {
    system = await startEsignSystem({
      label: 'e2e_sealed',
      // A small allowance so the test reaches it; everything else stays off as usual.
      env: { gateway: { RATE_LIMIT_ANONYMOUS: '4/3600s' } },
    });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
    dir = await mkdtemp(join(tmpdir(), 'e2e-sealed-'));
  });
  after(async () => {
    await system?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const download = async (id: string): Promise<Buffer> => {
    const res = await acme.esign.GET('/v1.1/requests/{request_id}/download', {
      params: { path: { request_id: id } },
      parseAs: 'arrayBuffer',
    });
    assert.equal(res.response.status, 200);
    return Buffer.from(res.data!);
  };

  const verify = (pdf: Buffer) =>
    conformingFetch(`${system.gatewayUrl}/v1.1/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: pdf,
    });

  it('downloads the same sealed bytes twice; verify says valid, then modified, then 429 past the limit', async () => {
    const email = `sealed-${unique()}@example.com`;
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: {
          contracts: [template],
          signers: [{ signer_id: email, signer: { email } }],
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
    ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'send',
    );
    const signed = await signAt(created.signers[0]!.request_url, '山田 花子');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));

    const first = await download(created.id);
    const second = await download(created.id);
    assert.ok(first.equals(second), 'two downloads are byte-identical');

    const file = join(dir, 'executed.pdf');
    await writeFile(file, first);
    const { stdout: report } = await run('pdfsig', [file]);
    assert.match(report, /Signature is Valid/, report);
    assert.match(report, /Total document signed/, report);
    const { stdout: text } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
    assert.ok(text.includes('山田 花子'), 'the Japanese name is text in the PDF');

    // No token: the gateway lets it through, and counts it against the caller's address.
    const valid = await verify(first);
    assert.equal(valid.status, 200);
    assert.match(valid.headers.get('ratelimit-policy') ?? '', /"anonymous";q=4;w=3600/);
    const answer = (await valid.json()) as { status: string; request_id: string };
    assert.equal(answer.status, 'valid');
    assert.equal(answer.request_id, created.id);

    const changed = Buffer.from(first);
    const at = Math.floor(changed.indexOf('/ByteRange') / 2);
    changed[at] = changed[at]! ^ 0x01;
    const modified = (await (await verify(changed)).json()) as { status: string; request_id: string };
    assert.deepEqual([modified.status, modified.request_id], ['modified', created.id]);

    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await verify(first);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    assert.deepEqual(
      statuses,
      [200, 200, 429],
      'the fifth call from one address is over RATE_LIMIT_ANONYMOUS=4/3600s',
    );
  });
});
