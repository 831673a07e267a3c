// The loop both authorization matrices run (gateway-matrix.test.ts for access tokens,
// session-matrix.test.ts for sessions): every endpoint × every kind of caller, through the
// gateway, its answers checked against the OpenAPI document.
import assert from 'node:assert/strict';
import { apiClient, bearer, type Answer } from './client.js';

export interface MatrixFixture<Kind extends string> {
  readonly path: string;
  readonly body?: unknown;
  /** Credentials (bare tokens) to use instead of the shared ones, for a call that ends its caller's. */
  readonly as?: Partial<Record<Kind, string>>;
  /** Checked after the calls of every kind but the last (the own one): they changed nothing. */
  readonly unchanged?: () => Promise<void>;
}

export interface MatrixEndpoint<Kind extends string> {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly prepare: () => Promise<MatrixFixture<Kind>>;
  readonly expect: Partial<Record<Kind, number>>;
}

/**
 * Calls each endpoint with each kind in `kinds` order (the own kind last), and fails with
 * every mismatch at once and the whole table: a status other than expected (`expect`, else
 * `refused(kind)`), a server error or stack trace, an answer the OpenAPI document does not
 * describe, any of `foreignTo(kind)` in an answer's headers or body, or a change made by
 * the calls before the own one. `E2E_PRINT_MATRIX=1` prints the table.
 */
export const runCredentialMatrix = async <Kind extends string>(input: {
  readonly gatewayUrl: string;
  readonly kinds: readonly Kind[];
  readonly credentials: Readonly<Record<Kind, string | undefined>>;
  readonly endpoints: readonly MatrixEndpoint<Kind>[];
  readonly refused: (kind: Kind) => number | undefined;
  readonly foreignTo: (kind: Kind) => readonly string[];
}): Promise<void> => {
  const { kinds } = input;
  const failures: string[] = [];
  const table: string[] = [];
  for (const endpoint of input.endpoints) {
    let fixture: MatrixFixture<Kind>;
    try {
      fixture = await endpoint.prepare();
    } catch (error) {
      failures.push(`${endpoint.name}: could not prepare the call: ${(error as Error).message}`);
      continue;
    }
    const row: string[] = [];
    for (const kind of kinds) {
      const expected = endpoint.expect[kind] ?? input.refused(kind);
      const own = fixture.as?.[kind];
      let answer: Answer;
      try {
        answer = await apiClient(
          input.gatewayUrl,
          own === undefined ? input.credentials[kind] : bearer(own),
        ).call(endpoint.method, fixture.path, fixture.body);
      } catch (error) {
        // An answer the OpenAPI document does not describe (support/conformance.ts).
        failures.push(`${endpoint.name} with ${kind}: ${(error as Error).message}`);
        row.push(`${kind}=!`);
        continue;
      }
      row.push(`${kind}=${answer.status}`);
      if (answer.status !== expected)
        failures.push(
          `${endpoint.name} with ${kind}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 300)}`,
        );
      if (answer.status >= 500 || /\bat .+:\d+:\d+\)/.test(answer.text))
        failures.push(`${endpoint.name} with ${kind}: a server error or a stack trace`);
      const everything = `${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${answer.text}`;
      const leaked = input.foreignTo(kind).filter((m) => everything.includes(m));
      if (leaked.length > 0) failures.push(`${endpoint.name} with ${kind}: leaked ${leaked.join(', ')}`);
      if (kind === kinds[kinds.length - 2])
        await fixture.unchanged?.().catch((error: Error) => {
          failures.push(`${endpoint.name}: the calls before the own one changed something: ${error.message}`);
        });
    }
    table.push(`${endpoint.name.padEnd(48)} ${row.join(' ')}`);
  }
  if (process.env.E2E_PRINT_MATRIX !== undefined) console.log(table.join('\n'));
  assert.deepEqual(failures, [], `\n${failures.join('\n')}\n\n${table.join('\n')}`);
};
