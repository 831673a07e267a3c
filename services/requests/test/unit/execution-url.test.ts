import assert from 'node:assert/strict';
import { executionUrl } from '../../src/application/deps.js';
import { countingUrlSigner } from '../support/url-signer.js';

describe('Execution URLs', () => {
  it('are {PUBLIC_BASE_URL}/sign?r=…&s=…&signature=…, form-encoded, under a base with or without a path', () => {
    const { signer } = countingUrlSigner();
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

  it('signs a link once per instance, and again for another version', () => {
    const { signer, signed } = countingUrlSigner();
    const urls = executionUrl({ publicBaseUrl: 'https://esign.example', urlSigner: signer });
    const first = urls('r1', 's1', 0);
    assert.equal(urls('r1', 's1', 0), first);
    assert.notEqual(urls('r1', 's1', 1), first);
    assert.deepEqual(signed, ['r1 s1 0', 'r1 s1 1']);
  });
});
