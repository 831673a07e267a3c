import type { KeyObject } from 'node:crypto';
import {
  CreateWebhookEndpointBody,
  PRINCIPAL_HEADER,
  RotateWebhookSecretBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryStatus,
  type FieldError,
  type PageRequest,
} from '@esign/contracts';
import type * as t from 'io-ts';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type Router from '@koa/router';
import {
  decodeBody,
  integerIdParam,
  invalidQuery,
  pageQuery,
  runWith,
  uuidParam,
  type AppContext,
  type AppState,
} from '@esign/platform';
import type { WebhookError } from '../../application/webhooks/webhook-errors.js';
import type { WebhookUseCases } from '../../application/webhooks/webhook-use-cases.js';
import { callerOf } from './principal.js';
import { problemOf, problemOfRejection } from './webhook-problems.js';

const answer = runWith(problemOf);

/** Runs a use case: its failure becomes its problem, a database outage the webhook 503. */
const run = <A>(task: TE.TaskEither<WebhookError, A>): Promise<A> =>
  answer(task).catch((error: unknown) => {
    throw problemOfRejection(error);
  });

/** A body the route requires decodes as `undefined` when absent (so it is named as missing). */
const bodyOf = <A, O>(codec: t.Type<A, O, unknown>, ctx: AppContext, absent?: unknown): A =>
  decodeBody(codec, ctx, { value: absent });

const siteIdOf = (raw: string | undefined): number => integerIdParam(raw, 'site');
const uuidOf = uuidParam;

/** `page`, `per_page` (at most 100) and the named extra parameters; anything else is refused by name. */
const queryOf = (
  query: Record<string, unknown>,
  extra: readonly string[] = [],
): { page: PageRequest; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  return { page: pageQuery(query, errors, { known: extra }), errors };
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
  options: { readonly gatewayPublicKey: KeyObject },
): void => {
  const caller = (ctx: AppContext) =>
    callerOf(options.gatewayPublicKey, ctx.get(PRINCIPAL_HEADER) || undefined);

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
