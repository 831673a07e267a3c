import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEsignClient, type Schemas } from '../../src/index.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

const read = async (req: IncomingMessage): Promise<string> => {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
};

describe('client: the typed client', () => {
  it('calls the documented path with the token and JSON body, and answers the typed body or problem', async () => {
    const seen: Seen[] = [];
    const server = createServer((req, res) => {
      void read(req).then((body) => {
        seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
        if (req.url === '/v1.1/requests/r1/send') {
          res.writeHead(409, { 'content-type': 'application/problem+json' });
          res.end(JSON.stringify({ type: 't', title: 'Conflict', status: 409, code: 'invalid_state' }));
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'r1', state: 'draft' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const esign = createEsignClient({ baseUrl: `http://127.0.0.1:${port}/`, accessToken: 'tok' });
      const created = await esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: 7 } },
        body: { contracts: [1], signers: [{ signer_id: 'a@b.example' }] },
      });
      const view: Schemas['RequestView'] | undefined = created.data;
      assert.equal(created.response.status, 201);
      assert.equal(view?.id, 'r1');
      const refused = await esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: 'r1' } },
      });
      assert.equal(refused.data, undefined);
      assert.equal((refused.error as { code?: string } | undefined)?.code, 'invalid_state');
      assert.deepEqual(seen, [
        {
          method: 'POST',
          url: '/v1.1/sites/7/requests',
          authorization: 'Bearer tok',
          body: '{"contracts":[1],"signers":[{"signer_id":"a@b.example"}]}',
        },
        { method: 'POST', url: '/v1.1/requests/r1/send', authorization: 'Bearer tok', body: '' },
      ]);
    } finally {
      server.close();
    }
  });
});
