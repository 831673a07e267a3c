import assert from 'node:assert/strict';
import type { Caller } from '../../src/application/caller.js';
import { executionUrl } from '../../src/application/deps.js';
import { useCases } from '../../src/application/use-cases.js';
import type { UrlSigner } from '../../src/ports/url-signer.js';
import { body, fresh, right } from '../support/builders.js';
import { fakeDeps } from '../support/fakes.js';

const SITE = { id: 7, name: 'Acme' };
const caller: Caller = { sub: 'u', sites: [SITE] };

/** A signer whose signatures name what they sign, counting how often it is asked. */
const countingSigner = (inner?: UrlSigner) => {
  const signed: string[] = [];
  const signer: UrlSigner = {
    sign: (requestId, signerRef, version = 0) => {
      signed.push(`${requestId} ${signerRef} ${version}`);
      return inner?.sign(requestId, signerRef, version) ?? `k1.${version}.sig/${signerRef}`;
    },
    verify: (...args) => inner?.verify(...args) ?? false,
    versionOf: (signature) => inner?.versionOf(signature) ?? 0,
  };
  return { signer, signed };
};

describe('Execution URLs', () => {
  it('are {PUBLIC_BASE_URL}/sign?r=…&s=…&signature=…, form-encoded, under a base with or without a path', () => {
    const { signer } = countingSigner();
    const expected = (origin: string) => `${origin}/sign?r=req+1&s=ref%2F2&signature=k1.3.sig%2Fref%2F2`;
    const cases: [string, string][] = [
      ['https://esign.example', 'https://esign.example'],
      ['https://esign.example/', 'https://esign.example'],
      ['https://host.example/esign', 'https://host.example/esign'],
      ['https://host.example/esign/', 'https://host.example/esign'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ];
    for (const [publicBaseUrl, origin] of cases)
      assert.equal(executionUrl({ publicBaseUrl, urlSigner: signer })('req 1', 'ref/2', 3), expected(origin));
  });

  it('sign each link once in a send: the answer and request.sent carry the same links', async () => {
    const fake = fakeDeps();
    const { signer, signed } = countingSigner(fake.deps.urlSigner);
    const cases = useCases({ ...fake.deps, urlSigner: signer });
    const template = fresh(
      right(
        await cases.createTemplate({
          caller,
          siteId: SITE.id,
          body: { type: 'html', name: 'NDA', html: 'x', fields: [{ name: 'sig', type: 'signature' }] },
        })(),
      ),
    );
    right(await cases.publishContract({ caller, templateId: template.id })());
    const draft = fresh(
      right(
        await cases.createRequest({
          caller,
          siteId: SITE.id,
          body: body({
            contracts: [template.id],
            signers: [
              { signer_id: 'a@b.co', send_to: { email: true } },
              { signer_id: 'c@d.co', send_to: { email: true } },
            ],
            fields: [{ name: 'sig', assigned_to: 'a@b.co' }],
          }),
        })(),
      ),
    );
    signed.length = 0;

    const sent = fresh(right(await cases.sendRequest({ caller, requestId: draft.id })()));

    assert.deepEqual(signed.sort(), sent.signers.map((s) => `${draft.id} ${s.signer_ref} 0`).sort());
    const event = fake.memory
      .state()
      .outbox.find((e) => e.aggregate_id === draft.id && e.type === 'request.sent');
    const inEvent = (event?.data as { signers: { signer_ref: string; request_url: string }[] }).signers;
    assert.deepEqual(inEvent.map((s) => s.request_url).sort(), sent.signers.map((s) => s.request_url).sort());
  });
});
