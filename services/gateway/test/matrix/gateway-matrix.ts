import { generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';

/**
 * The authorization matrix as data: every authenticated endpoint × every kind of
 * credential → the status a client must get. It is run against a `MatrixTarget`, so
 * the same table checks the gateway in front of test doubles today and in front of
 * the real services once they are assembled.
 *
 * Pointing it at the real services: start auth, requests and the gateway; through auth
 * make two sites, a user on each, a token per user (`own`, `other`) and a third token
 * then revoked (`revoked`); an expired token needs auth's signing key or a short token
 * lifetime; `forgeFrom(own)` and `MALFORMED_CREDENTIAL` need nothing. Through the
 * gateway with the `own` token create a template and a Request on the own site and put
 * their ids in `ids`, the other site's names, e-mails and ids in `markers.other`, and
 * set `ownStatus` where the real service answers another success status.
 */
export type CredentialKind = 'own' | 'other' | 'none' | 'malformed' | 'expired' | 'revoked' | 'forged';

export const CREDENTIAL_KINDS: readonly CredentialKind[] = [
  'none',
  'malformed',
  'expired',
  'revoked',
  'forged',
  'other',
  // Last, so a call that changes state (send, cancel) runs after the refused ones.
  'own',
];

/** The resources the calls aim at: all on the own site; `other` tokens reach only `otherSite`. */
export interface MatrixIds {
  readonly ownSite: number;
  readonly otherSite: number;
  readonly ownRequest: string;
  readonly ownContract: number;
}

export interface MatrixEndpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: (ids: MatrixIds) => string;
  /** Key of the JSON body in `MatrixTarget.bodies`, for calls that send one. */
  readonly body?: 'createRequest' | 'createContract';
  /** What a token reaching the own site gets from the service (overridable per target). */
  readonly own: number;
}

export const MATRIX_ENDPOINTS: readonly MatrixEndpoint[] = [
  {
    name: 'GET /v1.1/sites/:id/requests',
    method: 'GET',
    path: (i) => `/v1.1/sites/${i.ownSite}/requests`,
    own: 200,
  },
  {
    name: 'POST /v1.1/sites/:id/requests',
    method: 'POST',
    path: (i) => `/v1.1/sites/${i.ownSite}/requests`,
    body: 'createRequest',
    own: 201,
  },
  {
    name: 'GET /v1.1/sites/:id/events',
    method: 'GET',
    path: (i) => `/v1.1/sites/${i.ownSite}/events`,
    own: 200,
  },
  {
    name: 'GET /v1.1/sites/:id/signers',
    method: 'GET',
    path: (i) => `/v1.1/sites/${i.ownSite}/signers`,
    own: 200,
  },
  {
    name: 'GET /v1.1/sites/:id/contracts',
    method: 'GET',
    path: (i) => `/v1.1/sites/${i.ownSite}/contracts`,
    own: 200,
  },
  {
    name: 'POST /v1.1/sites/:id/contracts',
    method: 'POST',
    path: (i) => `/v1.1/sites/${i.ownSite}/contracts`,
    body: 'createContract',
    own: 201,
  },
  {
    name: 'GET /v1.1/contracts/:id',
    method: 'GET',
    path: (i) => `/v1.1/contracts/${i.ownContract}`,
    own: 200,
  },
  {
    name: 'POST /v1.1/contracts/:id/publish',
    method: 'POST',
    path: (i) => `/v1.1/contracts/${i.ownContract}/publish`,
    own: 200,
  },
  { name: 'GET /v1.1/requests/:id', method: 'GET', path: (i) => `/v1.1/requests/${i.ownRequest}`, own: 200 },
  {
    name: 'POST /v1.1/requests/:id/send',
    method: 'POST',
    path: (i) => `/v1.1/requests/${i.ownRequest}/send`,
    own: 200,
  },
  {
    name: 'POST /v1.1/requests/:id/remind',
    method: 'POST',
    path: (i) => `/v1.1/requests/${i.ownRequest}/remind`,
    own: 200,
  },
  {
    name: 'GET /v1.1/requests/:id/events',
    method: 'GET',
    path: (i) => `/v1.1/requests/${i.ownRequest}/events`,
    own: 200,
  },
  {
    name: 'GET /v1.1/requests/:id/download',
    method: 'GET',
    path: (i) => `/v1.1/requests/${i.ownRequest}/download`,
    own: 200,
  },
  {
    name: 'POST /v1.1/requests/:id/cancel',
    method: 'POST',
    path: (i) => `/v1.1/requests/${i.ownRequest}/cancel`,
    own: 200,
  },
];

export interface MatrixTarget {
  /** The gateway's address. */
  readonly baseUrl: string;
  readonly ids: MatrixIds;
  /** The `Authorization` header for each kind; `undefined` sends none. */
  readonly credentials: Readonly<Record<CredentialKind, string | undefined>>;
  readonly bodies: Readonly<Record<NonNullable<MatrixEndpoint['body']>, unknown>>;
  /** Where the real service's success status differs from the table's. */
  readonly ownStatus?: Readonly<Partial<Record<string, number>>>;
  /**
   * Data that belongs to each site and that no call carries itself (site names, signer
   * e-mails, ids of other Requests): a response may show a site's markers only to a
   * token that reaches that site.
   */
  readonly markers: { readonly own: readonly string[]; readonly other: readonly string[] };
}

export const expectedStatus = (
  target: MatrixTarget,
  endpoint: MatrixEndpoint,
  kind: CredentialKind,
): number => {
  switch (kind) {
    case 'own':
      return target.ownStatus?.[endpoint.name] ?? endpoint.own;
    case 'other':
      return 404;
    default:
      return 401;
  }
};

export interface MatrixCell {
  readonly endpoint: string;
  readonly kind: CredentialKind;
  readonly expected: number;
  readonly actual: number;
  /** Markers of a site the credential does not reach that showed up in the answer. */
  readonly leaked: readonly string[];
}

/** Runs every cell in table order and reports what came back. */
export const runMatrix = async (target: MatrixTarget): Promise<MatrixCell[]> => {
  const cells: MatrixCell[] = [];
  for (const endpoint of MATRIX_ENDPOINTS) {
    for (const kind of CREDENTIAL_KINDS) {
      const headers: Record<string, string> = {};
      const authorization = target.credentials[kind];
      if (authorization !== undefined) headers.authorization = authorization;
      const body = endpoint.body === undefined ? undefined : JSON.stringify(target.bodies[endpoint.body]);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(new URL(endpoint.path(target.ids), target.baseUrl), {
        method: endpoint.method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const text = `${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${await response.text()}`;
      const foreign = kind === 'own' ? target.markers.other : target.markers.own;
      cells.push({
        endpoint: endpoint.name,
        kind,
        expected: expectedStatus(target, endpoint, kind),
        actual: response.status,
        leaked: foreign.filter((marker) => text.includes(marker)),
      });
    }
  }
  return cells;
};

/** Cells that went wrong, as lines a failing test can print. */
export const matrixFailures = (cells: readonly MatrixCell[]): string[] =>
  cells
    .filter((c) => c.actual !== c.expected || c.leaked.length > 0)
    .map(
      (c) =>
        `${c.endpoint} with ${c.kind}: expected ${c.expected}, got ${c.actual}` +
        (c.leaked.length > 0 ? `, leaked ${c.leaked.join(', ')}` : ''),
    );

export const MALFORMED_CREDENTIAL = 'Bearer not-a-jwt';

/**
 * A forgery of a real token: the same header (same `kid`) and claims, signed with a key
 * the issuer never had. Works against any issuer, the real auth service included.
 */
export const forgeFrom = async (token: string): Promise<string> => {
  const header = decodeProtectedHeader(token);
  const claims = decodeJwt(token);
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  return new SignJWT(claims).setProtectedHeader({ ...header, alg: 'EdDSA' }).sign(privateKey);
};
