import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as t from 'io-ts';
import type Router from '@koa/router';
import {
  CreateWebhookEndpointBody,
  decode,
  MAX_PER_PAGE,
  PRINCIPAL_HEADER,
  RotateWebhookSecretBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryStatus,
  type FieldError,
} from '@esign/contracts';
import { invalidBody, invalidQuery, notFound, type AppContext, type AppState } from '@esign/platform';
import type { WebhookError } from '../../application/webhooks/webhook-errors.js';
import type { WebhookUseCases } from '../../application/webhooks/webhook-use-cases.js';
import type { PageRequest } from '../../ports/webhook-endpoint-store.js';
import { callerOf } from './principal.js';
import { problemOf } from './webhook-problems.js';

const run = async <A>(task: TE.TaskEither<WebhookError, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw problemOf(result.left);
  return result.right;
};

const bodyOf = <A, O>(codec: t.Type<A, O, unknown>, ctx: AppContext, empty?: unknown): A => {
  const raw = (ctx.request as { body?: unknown }).body;
  const decoded = decode(codec)(raw === undefined ? empty : raw);
  if (E.isLeft(decoded)) throw invalidBody(decoded.left);
  return decoded.right;
};

const INTEGER_ID = /^[1-9][0-9]{0,14}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that cannot exist answers 404 like a missing one: there is nothing to correct in a path. */
const siteIdOf = (raw: string | undefined): number => {
  if (raw === undefined || !INTEGER_ID.test(raw)) throw notFound('No such site.');
  return Number(raw);
};
const uuidOf = (raw: string | undefined, resource: string): string => {
  if (raw === undefined || !UUID.test(raw)) throw notFound(`No such ${resource}.`);
  return raw.toLowerCase();
};

const DEFAULT_PER_PAGE = 20;

/** `page`, `per_page` (at most 100) and the named extra parameters; anything else is refused by name. */
const queryOf = (
  query: Record<string, unknown>,
  extra: readonly string[] = [],
): { page: PageRequest; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  for (const key of Object.keys(query))
    if (!['page', 'per_page', ...extra].includes(key))
      errors.push({ path: key, message: 'unknown parameter' });
  const positive = (name: string, max: number, fallback: number) => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    if (typeof raw !== 'string' || !/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      errors.push({ path: name, message: `must be an integer from 1 to ${max}` });
      return fallback;
    }
    return Number(raw);
  };
  return {
    page: {
      page: positive('page', 1_000_000, 1),
      perPage: positive('per_page', MAX_PER_PAGE, DEFAULT_PER_PAGE),
    },
    errors,
  };
};

const BASE = '/v1.1/sites/:id/webhooks';

/**
 * The webhook API, under `/v1.1/sites/:id/webhooks`, reached through the gateway. Every
 * route first verifies the principal the gateway forwards; a site outside its scope is
 * "No such site.", exactly like a site that does not exist.
 */
export const mountWebhookRoutes = (
  router: Router<AppState>,
  cases: WebhookUseCases,
  options: { readonly internalTokenSecret: string },
): void => {
  const caller = (ctx: AppContext) =>
    callerOf(options.internalTokenSecret, ctx.get(PRINCIPAL_HEADER) || undefined);

  router.post(BASE, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const body = bodyOf(CreateWebhookEndpointBody, ctx);
    const created = await run(cases.create({ caller: who, siteId, body }));
    ctx.status = 201;
    ctx.set('Location', `/v1.1/sites/${siteId}/webhooks/${created.id}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = created;
  });

  router.get(BASE, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const { page, errors } = queryOf(ctx.query);
    if (errors.length > 0) throw invalidQuery(errors);
    ctx.body = await run(cases.list({ caller: who, siteId, page }));
  });

  router.get(`${BASE}/:webhook_id`, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const endpointId = uuidOf(ctx.params.webhook_id, 'webhook endpoint');
    ctx.body = await run(cases.get({ caller: who, siteId, endpointId }));
  });

  router.patch(`${BASE}/:webhook_id`, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const endpointId = uuidOf(ctx.params.webhook_id, 'webhook endpoint');
    const body = bodyOf(UpdateWebhookEndpointBody, ctx);
    ctx.body = await run(cases.update({ caller: who, siteId, endpointId, body }));
  });

  router.delete(`${BASE}/:webhook_id`, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const endpointId = uuidOf(ctx.params.webhook_id, 'webhook endpoint');
    await run(cases.remove({ caller: who, siteId, endpointId }));
    ctx.status = 204;
  });

  router.post(`${BASE}/:webhook_id/rotate-secret`, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const endpointId = uuidOf(ctx.params.webhook_id, 'webhook endpoint');
    const body = bodyOf(RotateWebhookSecretBody, ctx, {});
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await run(
      cases.rotateSecret({
        caller: who,
        siteId,
        endpointId,
        ...(body.overlap_seconds !== undefined && { overlapSeconds: body.overlap_seconds }),
      }),
    );
  });

  router.get(`${BASE}/:webhook_id/deliveries`, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const endpointId = uuidOf(ctx.params.webhook_id, 'webhook endpoint');
    const { page, errors } = queryOf(ctx.query, ['status']);
    let status: WebhookDeliveryStatus | undefined;
    if (ctx.query.status !== undefined) {
      if (typeof ctx.query.status === 'string' && WebhookDeliveryStatus.is(ctx.query.status))
        status = ctx.query.status;
      else
        errors.push({
          path: 'status',
          message: `must be one of ${Object.keys(WebhookDeliveryStatus.keys)
            .map((k) => JSON.stringify(k))
            .join(', ')}`,
        });
    }
    if (errors.length > 0) throw invalidQuery(errors);
    ctx.body = await run(
      cases.listDeliveries({
        caller: who,
        siteId,
        endpointId,
        page,
        ...(status !== undefined && { status }),
      }),
    );
  });

  router.get(`${BASE}/:webhook_id/deliveries/:delivery_id`, async (ctx) => {
    const who = await caller(ctx);
    const siteId = siteIdOf(ctx.params.id);
    const endpointId = uuidOf(ctx.params.webhook_id, 'webhook endpoint');
    const deliveryId = uuidOf(ctx.params.delivery_id, 'webhook delivery');
    ctx.body = await run(cases.getDelivery({ caller: who, siteId, endpointId, deliveryId }));
  });
};
