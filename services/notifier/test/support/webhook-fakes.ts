import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { WebhookEndpoint } from '../../src/domain/webhook-endpoint.js';
import type { WebhookEventType } from '@esign/contracts';
import type { DestinationGuard } from '../../src/ports/destination-guard.js';
import type { WebhookEndpointStore } from '../../src/ports/webhook-endpoint-store.js';
import type { WebhookRouting } from '../../src/ports/webhook-routing.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  WebhookDeliveryStore,
} from '../../src/ports/webhook-delivery-store.js';
import type { WebhookRequest, WebhookSender } from '../../src/ports/webhook-sender.js';
import type { AttemptResult } from '../../src/domain/webhook-delivery.js';

/** Endpoints in memory, scoped by site like the Postgres adapter. */
export const memoryEndpoints = () => {
  const rows = new Map<string, WebhookEndpoint>();
  const store: WebhookEndpointStore = {
    create: (endpoint, limit) => {
      if ([...rows.values()].filter((e) => e.siteId === endpoint.siteId).length >= limit)
        return TE.left({ _tag: 'TooManyEndpoints', limit });
      rows.set(endpoint.id, endpoint);
      return TE.right(undefined);
    },
    list: (siteId, page) => {
      const all = [...rows.values()].filter((e) => e.siteId === siteId);
      const start = (page.page - 1) * page.perPage;
      return TE.right({ items: all.slice(start, start + page.perPage), total: all.length });
    },
    get: (siteId, id) =>
      TE.right(O.fromNullable([...rows.values()].find((e) => e.siteId === siteId && e.id === id))),
    update: (siteId, id, change) => {
      const current = rows.get(id);
      if (current === undefined || current.siteId !== siteId) return TE.right(O.none);
      const changed = change(current);
      if (E.isLeft(changed)) return TE.left(changed.left);
      rows.set(id, changed.right);
      return TE.right(O.some(changed.right));
    },
    sitesWithEndpoints: () => {
      const sites = new Map<number, Set<WebhookEventType>>();
      for (const e of rows.values())
        for (const type of e.eventTypes) sites.set(e.siteId, (sites.get(e.siteId) ?? new Set()).add(type));
      return TE.right([...sites].map(([siteId, types]) => ({ siteId, eventTypes: [...types].sort() })));
    },
    remove: (siteId, id) => TE.right(rows.get(id)?.siteId === siteId && rows.delete(id)),
    listDeliveries: () => TE.right({ items: [], total: 0 }),
    getDelivery: () => TE.right(O.none),
  };
  return { store, rows };
};

/**
 * Routing that records the Sites it was told to follow; `down` makes it refuse, as when
 * the broker cannot be reached. The broker's own routing is tested against RabbitMQ.
 */
export const recordingRouting = (down = false) => {
  const followed: number[] = [];
  const followedTypes: (readonly WebhookEventType[])[] = [];
  const routing: WebhookRouting = {
    follow: (siteId, eventTypes) => {
      if (down) return TE.left({ _tag: 'RoutingUnavailable', reason: 'not connected to the broker' });
      followed.push(siteId);
      followedTypes.push(eventTypes);
      return TE.right(undefined);
    },
  };
  return { routing, followed, followedTypes };
};

/** A guard that refuses the URLs it is told to, and records what it was asked. */
export const fakeGuard = (refuse: Record<string, string> = {}) => {
  const checked: string[] = [];
  const guard: DestinationGuard = {
    check: (url) => {
      checked.push(url);
      const reason = refuse[url];
      return reason === undefined ? TE.right(undefined) : TE.left({ _tag: 'DestinationRefused', reason });
    },
  };
  return { guard, checked };
};

/** Claims handed out as given, and what was recorded for them. */
export const scriptedDeliveries = (claims: ClaimedDelivery[]) => {
  const recorded: AttemptRecord[] = [];
  const cancelled: Array<{ id: string; reason: string }> = [];
  const store: WebhookDeliveryStore = {
    fanOut: () => TE.right(0),
    claimDue: (limit) => TE.rightIO(() => claims.splice(0, limit)),
    recordAttempt: (record) =>
      TE.rightIO(() => {
        recorded.push(record);
        return { recorded: true, disabled: record.health({ enabled: true, failingSince: null }).disable };
      }),
    cancel: (delivery, reason) =>
      TE.rightIO(() => {
        cancelled.push({ id: delivery.id, reason });
      }),
    prune: () => TE.right(0),
    claimAlerts: () => TE.right([]),
    nextDueInMs: () => TE.right(claims.length > 0 ? 0 : null),
    alertSent: () => TE.right(undefined),
    alertFailed: () => TE.right(undefined),
  };
  return { store, recorded, cancelled };
};

/** A sender that answers from a script and keeps every request. */
export const scriptedSender = (...results: AttemptResult[]) => {
  const sent: WebhookRequest[] = [];
  const sender: WebhookSender = {
    send: (request) =>
      TE.rightIO(() => {
        sent.push(request);
        return results.shift() ?? { _tag: 'Response', status: 200, excerpt: '', durationMs: 1 };
      }),
  };
  return { sender, sent };
};
