// The webhook API's endpoints of the gateway's authorization matrix: served by the notifier.
import { eventually } from '@esign/testing';
import { expectStatus } from './client.js';
import { unique, type ClientOf } from './flow.js';
import type { Endpoint } from './matrix-kinds.js';

/**
 * The webhook endpoints' calls for `acme` (the own site), each making a fresh endpoint when it
 * needs one; `created` makes a Request of the Site, for an endpoint that has a delivery.
 */
export const webhookEndpoints = (acme: ClientOf, created: () => Promise<unknown>): Endpoint[] => {
  const webhookBody = (eventType = 'request.expired') => ({
    url: `https://127.0.0.1:9/esign/${unique()}`,
    event_types: [eventType],
    alert_email: 'ops@acme.example',
  });
  const webhook = async (eventType?: string): Promise<string> =>
    expectStatus(
      await acme.api.post<{ id: string }>(`/v1.1/sites/${acme.site}/webhooks`, webhookBody(eventType)),
      201,
      'create webhook',
    ).body.id;
  /**
   * An endpoint's one delivery: of a `request.created`, to an address nothing listens on, so
   * it is kept failing and retried; its path.
   */
  const delivery = async (): Promise<string> => {
    const endpoint = `/v1.1/sites/${acme.site}/webhooks/${await webhook('request.created')}`;
    await created();
    const id = await eventually(
      async () =>
        expectStatus(await acme.api.get<{ data: { id: string }[] }>(`${endpoint}/deliveries`), 200).body
          .data[0]?.id,
      60_000,
      200,
    );
    return `${endpoint}/deliveries/${id}`;
  };

  return [
    {
      name: 'GET /v1.1/sites/:id/webhooks',
      notifier: true,
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/webhooks` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/sites/:id/webhooks',
      notifier: true,
      method: 'POST',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/webhooks`, body: webhookBody() }),
      expect: { own: 201 },
    },
    {
      name: 'GET /v1.1/sites/:id/webhooks/:id',
      notifier: true,
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}` }),
      expect: { own: 200 },
    },
    {
      name: 'PATCH /v1.1/sites/:id/webhooks/:id',
      notifier: true,
      method: 'PATCH',
      prepare: async () => ({
        path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}`,
        body: { description: 'changed' },
      }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/sites/:id/webhooks/:id/rotate-secret',
      notifier: true,
      method: 'POST',
      prepare: async () => ({
        path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}/rotate-secret`,
        body: {},
      }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/sites/:id/webhooks/:id/deliveries',
      notifier: true,
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}/deliveries` }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/sites/:id/webhooks/:id/deliveries/:id',
      notifier: true,
      method: 'GET',
      prepare: async () => ({ path: await delivery() }),
      expect: { own: 200 },
    },
    {
      name: 'DELETE /v1.1/sites/:id/webhooks/:id',
      notifier: true,
      method: 'DELETE',
      prepare: async () => ({ path: `/v1.1/sites/${acme.site}/webhooks/${await webhook()}` }),
      expect: { own: 204 },
    },
  ];
};
