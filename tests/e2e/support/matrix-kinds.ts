// The kinds of credential the gateway's authorization matrix calls every endpoint with,
// and what an endpoint of it is (tests/e2e/gateway-matrix.test.ts).
import type { MatrixEndpoint, MatrixFixture } from './credential-matrix.js';

export const KINDS = ['none', 'malformed', 'expired', 'revoked', 'forged', 'other', 'own'] as const;
export type Kind = (typeof KINDS)[number];

/** What one endpoint is called with; `prepare` makes fresh resources of the own site. */
export type Fixture = MatrixFixture<Kind>;

/** The status for each kind; the default: 401 for bad credentials, 404 for `other`. */
export interface Endpoint extends MatrixEndpoint<Kind> {
  /** Served by the notifier (the webhook API) rather than requests or auth. */
  readonly notifier?: true;
}

export const refusedByDefault = (kind: Kind): number | undefined =>
  kind === 'own' ? undefined : kind === 'other' ? 404 : 401;
