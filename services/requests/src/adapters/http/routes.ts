import type { KeyObject } from 'node:crypto';
import {
  CancelRequestBody,
  CopyRequestBody,
  CreateRequestBody,
  PRINCIPAL_HEADER,
  UpdateRequestBody,
  NoParameters,
} from '@esign/contracts';
import { integerIdParam, uuidParam, type AppContext, type AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { Caller } from '../../application/caller.js';
import type { UseCases } from '../../application/use-cases.js';
import { createdInterval, feedQuery, historyQuery, listQuery } from './params.js';
import { mountContractRoutes } from './contract-routes.js';
import { mountDraftContractRoutes } from './draft-contract-routes.js';
import { mountRequestSignerRoutes } from './request-signer-routes.js';
import { callerOf } from './principal.js';
import { sealOutage } from './problems.js';
import { answer, bodyOf, idempotencyFrom, run } from './route-helpers.js';

const REQUEST_STATES = ['draft', 'sent', 'completed', 'cancelled', 'expired', 'declined'] as const;

/** The requests API under /v1.1. Every route first verifies the principal the gateway forwards. */
export const mountRoutes = (
  router: Router<AppState>,
  cases: UseCases,
  options: { readonly gatewayPublicKey: KeyObject },
): void => {
  const authed =
    (handler: (ctx: AppContext, caller: Caller) => Promise<void>) =>
    async (ctx: AppContext): Promise<void> => {
      const caller = await callerOf(options.gatewayPublicKey, ctx.get(PRINCIPAL_HEADER) || undefined);
      await handler(ctx, caller);
    };

  mountContractRoutes(router, cases, authed);

  router.post(
    '/v1.1/sites/:id/requests',
    authed(async (ctx, caller) => {
      const siteId = integerIdParam(ctx.params.id, 'site');
      const body = bodyOf(CreateRequestBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const outcome = await run(
        cases.createRequest({ caller, siteId, body, ...(idempotency && { idempotency }) }),
      );
      answer(ctx, 201, outcome, '/v1.1/requests');
    }),
  );

  // A new draft made of any Request (ADR 3330).
  router.post(
    '/v1.1/requests/:id/copy',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const body = bodyOf(CopyRequestBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const outcome = await run(
        cases.copyRequest({ caller, requestId, body, ...(idempotency && { idempotency }) }),
      );
      answer(ctx, 201, outcome, '/v1.1/requests');
    }),
  );

  router.get(
    '/v1.1/sites/:id/requests',
    authed(async (ctx, caller) => {
      const siteId = integerIdParam(ctx.params.id, 'site');
      const { page, state, flags, texts, ids, uuids, times, search } = listQuery(ctx.query, REQUEST_STATES, {
        flags: ['test_mode'],
        texts: ['signer_id'],
        ids: ['contract_id'],
        uuids: ['copied_from', 'bulk_send_id'],
        times: ['created_from', 'created_before'],
        search: true,
      });
      const { createdFrom, createdBefore } = createdInterval(times);
      const filter = {
        state,
        testMode: flags.test_mode,
        signerId: texts.signer_id,
        contractId: ids.contract_id,
        copiedFrom: uuids.copied_from,
        bulkSendId: uuids.bulk_send_id,
        createdFrom,
        createdBefore,
        search,
      };
      ctx.body = await run(cases.listRequests({ caller, siteId, page, filter }));
    }),
  );

  // The Site's event feed (ADR 3190): every Request's history entries after a cursor, or before one.
  router.get(
    '/v1.1/sites/:id/events',
    authed(async (ctx, caller) => {
      const siteId = integerIdParam(ctx.params.id, 'site');
      const { from, perPage, types } = feedQuery(ctx.query);
      ctx.body = await run(cases.listSiteEvents({ caller, siteId, from, perPage, ...(types && { types }) }));
    }),
  );

  // The Request's history (ADR 3170): the events its webhooks carry, oldest or newest first.
  router.get(
    '/v1.1/requests/:id/events',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const { page, order, types } = historyQuery(ctx.query);
      ctx.body = await run(
        cases.listRequestEvents({ caller, requestId, page, order, ...(types && { types }) }),
      );
    }),
  );

  // What the signers entered, as the executed document shows it (ADR 3730).
  router.get(
    '/v1.1/requests/:id/field_values',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      ctx.body = await run(cases.listFieldValues({ caller, requestId }));
    }),
  );

  // The file a signer signed with for an attachment field (ADR 3920), by the field's name.
  router.get(
    '/v1.1/requests/:id/attachments/:field',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const file = await run(
        cases.downloadAttachment({ caller, requestId, fieldName: ctx.params.field ?? '' }),
      );
      // RFC 6266's filename and filename*, so a name in any script reaches the browser intact.
      ctx.attachment(file.fileName);
      ctx.type = file.contentType;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      // What the signer uploaded never changes once they signed: its hash is a strong validator.
      ctx.set('ETag', `"${file.sha256}"`);
      ctx.body = Buffer.from(file.content);
    }),
  );

  for (const [action, useCase] of [
    ['send', cases.sendRequest],
    ['remind', cases.remindRequest],
  ] as const) {
    router.post(
      `/v1.1/requests/:id/${action}`,
      authed(async (ctx, caller) => {
        const requestId = uuidParam(ctx.params.id, 'request');
        bodyOf(NoParameters, ctx);
        const idempotency = idempotencyFrom(ctx);
        answer(ctx, 200, await run(useCase({ caller, requestId, ...(idempotency && { idempotency }) })));
      }),
    );
  }

  // Why, and whether its signers are told (ADR 3500); no body, or `{}`, cancels as before.
  router.post(
    '/v1.1/requests/:id/cancel',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const { reason, notify_signers } = bodyOf(CancelRequestBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const order = {
        ...(reason !== undefined && { reason }),
        ...(notify_signers === true && { notifySigners: true }),
      };
      answer(
        ctx,
        200,
        await run(cases.cancelRequest({ caller, requestId, order, ...(idempotency && { idempotency }) })),
      );
    }),
  );

  mountDraftContractRoutes(router, cases, authed);
  mountRequestSignerRoutes(router, cases, authed);

  router.get(
    '/v1.1/requests/:id/download',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const executed = await run(cases.downloadExecuted({ caller, requestId })).catch(sealOutage);
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `attachment; filename="${executed.filename}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      // The kept file never changes (ADR 2100): its hash is a strong validator.
      ctx.set('ETag', `"${executed.sha256}"`);
      ctx.body = Buffer.from(executed.pdf);
    }),
  );

  router.get(
    '/v1.1/requests/:id',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      ctx.body = await run(cases.getRequest({ caller, requestId }));
    }),
  );

  // An open Request's expiry and automatic reminders (ADR 3150); a draft's render_data and fields (ADR 3220);
  // the other parts of UpdateRequestBody.
  router.patch(
    '/v1.1/requests/:id',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const body = bodyOf(UpdateRequestBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const change = {
        ...(body.expires_at !== undefined && { expiresAt: body.expires_at }),
        ...(body.reminder_interval_days !== undefined && {
          reminderIntervalDays: body.reminder_interval_days,
        }),
        ...(body.render_data !== undefined && { renderData: body.render_data }),
        ...(body.cc !== undefined && { cc: body.cc }),
        ...(body.message !== undefined && { message: body.message }),
        ...(body.title !== undefined && { title: body.title }),
        ...(body.subject !== undefined && { subject: body.subject }),
        ...(body.allow_reassign !== undefined && { allowReassign: body.allow_reassign }),
      };
      answer(
        ctx,
        200,
        await run(
          cases.changeRequestSettings({
            caller,
            requestId,
            change,
            ...(body.fields !== undefined && { fields: body.fields }),
            ...(idempotency && { idempotency }),
          }),
        ),
      );
    }),
  );
};
