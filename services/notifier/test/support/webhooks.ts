import type { WebhookEndpoint } from '../../src/domain/webhook-endpoint.js';

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
