import { randomUUID } from 'node:crypto';
import type { EsignSystem } from '@esign/testing';
import type { ApiClient } from './client.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client that retries what failed with the same Idempotency-Key, as the README advises:
 * on a connection reset or refusal, a 503, or 409 `idempotency_key_in_flight`. Anything
 * else unexpected fails the drill with the services' last words.
 */
export const retryingClient =
  (answers: Map<string, number>, system: EsignSystem) =>
  async (api: ApiClient, path: string, body: unknown, ok: number): Promise<unknown> => {
    const key = randomUUID();
    const deadline = Date.now() + 120_000;
    let last = '';
    for (let attempt = 0; ; attempt++) {
      let retry: boolean;
      try {
        const answer = await api.call('POST', path, body, { 'idempotency-key': key });
        const label = `${answer.status}${answer.headers.get('idempotent-replayed') === 'true' ? ' (replayed)' : ''}`;
        answers.set(label, (answers.get(label) ?? 0) + 1);
        if (answer.status === ok) return answer.body;
        last = `${answer.status} ${answer.text.slice(0, 300)}`;
        retry =
          answer.status === 503 || (answer.status === 409 && /idempotency_key_in_flight/.test(answer.text));
      } catch (error) {
        answers.set('connection failed', (answers.get('connection failed') ?? 0) + 1);
        last = `${String(error)} ${String((error as Error).cause)}`;
        retry = true;
      }
      if (!retry || Date.now() > deadline) {
        const tails = (['gateway', 'auth', 'requests', 'notifier'] as const)
          .flatMap((name) =>
            system.replicasOf(name).map((r, i) => `--- ${name}#${i}:\n${r.output().slice(-1200)}`),
          )
          .join('\n');
        throw new Error(`${path}: ${last}\n${tails}`);
      }
      await sleep(Math.min(1000, 100 * 2 ** attempt));
    }
  };
