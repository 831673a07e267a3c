// The kinds of credential the gateway's authorization matrix calls every endpoint with,
// and what an endpoint of it is (tests/e2e/gateway-matrix.test.ts).
export const KINDS = ['none', 'malformed', 'expired', 'revoked', 'forged', 'other', 'own'] as const;
export type Kind = (typeof KINDS)[number];

/** What one endpoint is called with; `prepare` makes fresh resources of the own site. */
export interface Fixture {
  readonly path: string;
  readonly body?: unknown;
  /** Checked after the refused calls: they changed nothing. */
  readonly unchanged?: () => Promise<void>;
}

export interface Endpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly prepare: () => Promise<Fixture>;
  /** The status for each kind; the default: 401 for bad credentials, 404 for `other`. */
  readonly expect: Partial<Record<Kind, number>>;
  /** Served by the notifier (the webhook API) rather than requests or auth. */
  readonly notifier?: true;
}

export const refusedByDefault = (kind: Kind): number | undefined =>
  kind === 'own' ? undefined : kind === 'other' ? 404 : 401;
