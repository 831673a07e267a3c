import * as E from 'fp-ts/lib/Either.js';
import type { KeyObject } from 'node:crypto';
import { PRINCIPAL_AUDIENCES, PRINCIPAL_HEADER } from '@esign/contracts';
import { verifyPrincipal } from '@esign/platform';
import { json, startHttpDouble } from './http-double.js';

export interface World {
  readonly requests: ReadonlyArray<{ readonly id: string; readonly siteId: number; readonly signer: string }>;
  readonly contracts: ReadonlyArray<{ readonly id: number; readonly siteId: number; readonly name: string }>;
}

const notFound = { type: 'about:blank', title: 'Not found', status: 404, code: 'not_found' };

/**
 * Stands in for the requests service at its seam with the gateway: it trusts only a
 * principal it can verify with the gateway's public key, and answers 404 for a Request or
 * template on a site the principal does not reach, as the real service must.
 */
export const startRequestsDouble = (gatewayKey: KeyObject, world: World) =>
  startHttpDouble(async (recorded, res) => {
    const [path = '', query = ''] = recorded.url.split('?');
    if (path === '/sign' || path.startsWith('/sign/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end(`<p>signer page ${query}</p>`);
    }
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    const header = recorded.headers[PRINCIPAL_HEADER];
    const principal =
      typeof header === 'string'
        ? await verifyPrincipal({ publicKey: gatewayKey, audience: PRINCIPAL_AUDIENCES.requests }, header)
        : E.left('missing');
    if (E.isLeft(principal)) return json(res, 401, { ...notFound, status: 401, code: 'bad_principal' });
    const reaches = new Set(principal.right.sites.map((s) => s.id));

    let m = /^\/v1\.1\/sites\/(\d+)\/(requests|contracts|events|signers)$/.exec(path);
    if (m !== null) {
      const siteId = Number(m[1]);
      if (!reaches.has(siteId)) return json(res, 404, notFound);
      if (m[2] === 'events') return json(res, 200, { data: [], has_more: false, next_after: 'MC4w' });
      if (m[2] === 'signers') return json(res, 200, { data: [] });
      if (recorded.method === 'POST') return json(res, 201, { id: 'created', site_id: siteId });
      const items = m[2] === 'requests' ? world.requests : world.contracts;
      return json(res, 200, { data: items.filter((i) => i.siteId === siteId) });
    }
    m = /^\/v1\.1\/requests\/([^/]+)(?:\/(send|cancel|remind|download|events))?$/.exec(path);
    if (m !== null) {
      const id = decodeURIComponent(m[1]!);
      const request = world.requests.find((r) => r.id === id);
      if (request === undefined || !reaches.has(request.siteId)) return json(res, 404, notFound);
      if (m[2] === 'download') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return void res.end(`%PDF-1.7 ${request.id}`);
      }
      if (m[2] === 'events')
        return json(res, 200, { page: 1, per_page: 20, count: 0, total_count: 0, has_more: false, data: [] });
      return json(res, 200, request);
    }
    m = /^\/v1\.1\/contracts\/(\d+)(?:\/publish)?$/.exec(path);
    if (m !== null) {
      const id = Number(m[1]);
      const contract = world.contracts.find((c) => c.id === id);
      if (contract === undefined || !reaches.has(contract.siteId)) return json(res, 404, notFound);
      return json(res, 200, contract);
    }
    json(res, 404, notFound);
  });
