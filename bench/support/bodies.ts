/**
 * The create calls the bench makes: 1 contract, 2 signers, 3 fields (the README's cost
 * example). A realistic client names new people in most Requests, so every create gets
 * signers of its own (`unique`); the hot case, where every transaction upserts the same
 * two signer rows and waits on their row locks, is measured on its own line.
 */
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';

/** NANP exchanges: 200 to 999, none N11 (other numbers are refused, ADR 1320). */
const EXCHANGES = Array.from({ length: 800 }, (_, i) => 200 + i).filter((e) => e % 100 !== 11);
/** A distinct valid US number in area code 202 for each n (7.9 million of them). */
const usMobile = (n: number): string => {
  const m = n % (EXCHANGES.length * 10_000);
  return `202${EXCHANGES[m % EXCHANGES.length]}${String(Math.floor(m / EXCHANGES.length)).padStart(4, '0')}`;
};

let signerSerial = 0;
const runTag = randomUUID().slice(0, 8);

/** A create's two signers: an e-mail signer and a mobile-number signer. */
export const signerPair = (unique: boolean) => {
  if (!unique) return { a: 'client-42', email: 'alice@example.com', mobile: '2025550143' };
  const n = signerSerial++;
  return { a: `client-${runTag}-${n}`, email: `c${n}-${runTag}@example.com`, mobile: usMobile(n) };
};

export const createBody = (template: number, unique: boolean) => {
  const { a, email, mobile } = signerPair(unique);
  return JSON.stringify({
    contracts: [template],
    signers: [
      { signer_id: a, signer: { email }, send_to: { email: true } },
      { signer_id: mobile, send_to: { mobile_number: true } },
    ],
    fields: [
      { name: 'full_name', assigned_to: a },
      { name: 'signature', assigned_to: a },
      { name: 'witness_signature', assigned_to: mobile },
    ],
    render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
  });
};

/** autocannon options for creates: a fresh body (new signers) per call, or one fixed body. */
export const createCalls = (
  url: string,
  headers: Record<string, string>,
  template: number,
  unique: boolean,
) =>
  unique
    ? {
        url,
        requests: [
          {
            method: 'POST' as const,
            headers,
            setupRequest: (request: autocannon.Request) => ({ ...request, body: createBody(template, true) }),
          },
        ],
      }
    : { url, method: 'POST' as const, headers, body: createBody(template, false) };

export const TEMPLATE = {
  type: 'html' as const,
  name: 'Services agreement',
  html: '<h1>Services agreement</h1><p>Between <b>{{client_name}}</b> and the provider, from {{start_date}}.</p>',
  fields: [
    { name: 'full_name', type: 'text' as const },
    { name: 'signature', type: 'signature' as const },
    { name: 'witness_signature', type: 'signature' as const },
  ],
};

/** A typed client call's body, or an error with the answer when its status is not `expected`. */
export const answer = <T>(
  result: { readonly data?: T; readonly error?: unknown; readonly response: Response },
  expected: number,
): T => {
  if (result.response.status !== expected || result.data === undefined)
    throw new Error(
      `expected ${expected}, got ${result.response.status}: ${JSON.stringify(result.error ?? null)}`,
    );
  return result.data;
};
