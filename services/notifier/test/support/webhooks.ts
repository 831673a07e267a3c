import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { formatErrors, renderErrors } from '@esign/contracts';
import type { WebhookEndpoint } from '../../src/domain/webhook-endpoint.js';
import { webhookSecretSealer } from '../../src/adapters/crypto/webhook-secrets.js';

/** `KEY_ENCRYPTION_KEYS` of the webhook tests, and the sealer it makes. */
export const TEST_KEY_ENCRYPTION_KEYS = 'k1:a-test-key-encryption-secret-of-32-characters';
export const testSealer = webhookSecretSealer({
  KEY_ENCRYPTION_KEYS: [{ id: 'k1', secret: 'a-test-key-encryption-secret-of-32-characters' }],
});

let counter = 0;

/** An endpoint with readable defaults, for domain and store tests. */
export const anEndpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => {
  counter++;
  const hex = counter.toString(16).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${hex}`,
    siteId: 7,
    siteName: 'Acme Lettings',
    url: `https://hooks.example.com/${counter}`,
    description: '',
    eventTypes: ['request.sent', 'request.completed'],
    enabled: true,
    disabledReason: null,
    alertEmail: 'ops@acme.example',
    secret: `whsec_secret_${counter}`,
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
};

/** A JSON answer read through its codec: a shape that drifted from the contract fails the test here. */
export const decoded = <A>(codec: t.Decoder<unknown, A>, body: unknown): A => {
  const result = codec.decode(body);
  if (E.isLeft(result))
    throw new Error(`${codec.name}: ${renderErrors(formatErrors(result.left))}\n${JSON.stringify(body)}`);
  return result.right;
};

export const ProblemBody = t.intersection([
  t.type({ status: t.number, code: t.string }),
  t.partial({ detail: t.string, errors: t.array(t.type({ path: t.string, message: t.string })) }),
]);

/** The field errors of a problem answer. */
export const fieldErrors = (body: unknown) => decoded(ProblemBody, body).errors ?? [];
