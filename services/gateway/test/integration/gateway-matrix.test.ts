import assert from 'node:assert/strict';
import { testGatewayKeys } from '@esign/testing';
import { startAuthDouble, jtiOf, type AuthDouble } from '../support/auth-double.js';
import { startGateway, INTROSPECTION_SECRET, type GatewayUnderTest } from '../support/gateway-under-test.js';
import type { HttpDouble } from '../support/http-double.js';
import { startRequestsDouble } from '../support/requests-double.js';
import {
  CREDENTIAL_KINDS,
  forgeFrom,
  MALFORMED_CREDENTIAL,
  MATRIX_ENDPOINTS,
  matrixFailures,
  runMatrix,
  type MatrixTarget,
} from '../matrix/gateway-matrix.js';

describe('gateway: the authorization matrix (against doubles of auth and requests)', () => {
  let auth: AuthDouble;
  let requests: HttpDouble;
  let gateway: GatewayUnderTest;
  let target: MatrixTarget;

  before(async () => {
    auth = await startAuthDouble({ internalSecret: INTROSPECTION_SECRET });
    requests = await startRequestsDouble(testGatewayKeys.publicKey, {
      requests: [
        { id: 'req-own-1', siteId: 11, signer: 'alice@own.example' },
        { id: 'req-other-1', siteId: 22, signer: 'bob@other.example' },
      ],
      contracts: [
        { id: 101, siteId: 11, name: 'Own lease' },
        { id: 202, siteId: 22, name: 'Other NDA' },
      ],
    });
    gateway = await startGateway({ authUrl: auth.url, requestsUrl: requests.url });
    const ownSite = { id: 11, name: 'Own site' };
    const otherSite = { id: 22, name: 'Other site' };
    const own = await auth.issue([ownSite]);
    const revoked = await auth.issue([ownSite, otherSite]);
    auth.revoke(jtiOf(revoked));
    target = {
      baseUrl: gateway.url,
      ids: { ownSite: 11, otherSite: 22, ownRequest: 'req-own-1', ownContract: 101 },
      credentials: {
        own: `Bearer ${own}`,
        other: `Bearer ${await auth.issue([otherSite])}`,
        none: undefined,
        malformed: MALFORMED_CREDENTIAL,
        expired: `Bearer ${await auth.issue([ownSite], { expiresIn: -60 })}`,
        revoked: `Bearer ${revoked}`,
        forged: `Bearer ${await forgeFrom(own)}`,
      },
      bodies: {
        createRequest: { contracts: [101], signers: [{ signer_id: 'carol@own.example' }] },
        createContract: { name: 'New template' },
      },
      markers: {
        own: ['alice@own.example', 'Own lease', 'Own site'],
        other: ['bob@other.example', 'Other NDA', 'req-other-1', 'Other site'],
      },
    };
  });

  after(async () => {
    await gateway.close();
    await requests.close();
    await auth.close();
  });

  it(`gives exactly the expected status in all ${MATRIX_ENDPOINTS.length} × ${CREDENTIAL_KINDS.length} cells and leaks nothing`, async () => {
    const cells = await runMatrix(target);
    assert.equal(cells.length, MATRIX_ENDPOINTS.length * CREDENTIAL_KINDS.length);
    assert.deepEqual(matrixFailures(cells), []);
    // The table is not vacuous: every kind of refusal and the success path all occur.
    assert.deepEqual(new Set(cells.map((c) => c.actual)), new Set([200, 201, 401, 404]));
  });

  it('never lets a refused credential reach the requests service', () => {
    // Only `own` and `other` tokens are admitted, and each call is made once per kind.
    const upstreamCalls = requests.received.filter((r) => r.url.startsWith('/v1.1/'));
    const admittedPerEndpoint = MATRIX_ENDPOINTS.filter(
      (e) => !e.path(target.ids).startsWith('/v1.1/sites/'),
    ).length;
    // Site routes: another site's token is turned away by the gateway itself.
    const siteEndpoints = MATRIX_ENDPOINTS.length - admittedPerEndpoint;
    assert.equal(upstreamCalls.length, siteEndpoints + 2 * admittedPerEndpoint);
  });
});
