import {
  CopyContractBody,
  CreateContractBody,
  PatchContractBody,
  TEMPLATE_EVENT_TYPES,
} from '@esign/contracts';
import { integerIdParam, type AppContext, type AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { Caller } from '../../application/caller.js';
import type { UseCases } from '../../application/use-cases.js';
import { historyQuery, listQuery } from './params.js';
import { answer, bodyOf, idempotencyFrom, run } from './route-helpers.js';

const TEMPLATE_STATES = ['draft', 'published'] as const;
/** The states a sent Request may be in (ADR 3780): a draft was never sent. */
const SENT_STATES = ['sent', 'completed', 'declined', 'expired', 'cancelled'] as const;

export type Authed = (
  handler: (ctx: AppContext, caller: Caller) => Promise<void>,
) => (ctx: AppContext) => Promise<void>;

/**
 * Contract templates: create and list a Site's, read one, publish it; a draft's content
 * replaced whole (`PUT`, the create's body) or the draft deleted (ADR 3240); a published
 * one archived or unarchived (ADR 3250); any one copied into a new draft (ADR 3260); a PDF
 * template's file downloaded (ADR 3270); a template's history read (ADR 3720); what signers
 * entered in its fields (ADR 3780).
 */
export const mountContractRoutes = (router: Router<AppState>, cases: UseCases, authed: Authed): void => {
  router.post(
    '/v1.1/sites/:id/contracts',
    authed(async (ctx, caller) => {
      const siteId = integerIdParam(ctx.params.id, 'site');
      const body = bodyOf(CreateContractBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const outcome = await run(
        cases.createTemplate({ caller, siteId, body, ...(idempotency && { idempotency }) }),
      );
      answer(ctx, 201, outcome, '/v1.1/contracts');
    }),
  );

  router.get(
    '/v1.1/sites/:id/contracts',
    authed(async (ctx, caller) => {
      const siteId = integerIdParam(ctx.params.id, 'site');
      const { page, state, flags, search } = listQuery(ctx.query, TEMPLATE_STATES, {
        flags: ['archived'],
        search: true,
      });
      const filter = { state, archived: flags.archived, search };
      ctx.body = await run(cases.listContracts({ caller, siteId, page, filter }));
    }),
  );

  router.get(
    '/v1.1/contracts/:id',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      ctx.body = await run(cases.getContract({ caller, templateId }));
    }),
  );

  // A template's history (ADR 3720): its own entries of its Site's feed.
  router.get(
    '/v1.1/contracts/:id/events',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      const { page, order, types } = historyQuery(ctx.query, TEMPLATE_EVENT_TYPES);
      ctx.body = await run(
        cases.listContractEvents({ caller, templateId, page, order, ...(types && { types }) }),
      );
    }),
  );

  // What signers entered in the template's fields, across its sent Requests (ADR 3780).
  router.get(
    '/v1.1/contracts/:id/field_values',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      const { page, state } = listQuery(ctx.query, SENT_STATES);
      ctx.body = await run(cases.listTemplateFieldValues({ caller, templateId, page, state }));
    }),
  );

  // A PDF template's file as uploaded (ADR 3270), to download: revalidated by its hash.
  router.get(
    '/v1.1/contracts/:id/document',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      const document = await run(cases.contractDocument({ caller, templateId }));
      ctx.set('Cache-Control', 'private, no-cache');
      ctx.set('ETag', `"${document.sha256}"`);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set(
        'Content-Disposition',
        `attachment; filename="contract-${templateId}.pdf"; filename*=UTF-8''${encodeURIComponent(`${document.name}.pdf`)}`,
      );
      ctx.type = 'application/pdf';
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.body = Buffer.from(document.pdf);
    }),
  );

  router.post(
    '/v1.1/contracts/:id/publish',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      const idempotency = idempotencyFrom(ctx);
      answer(
        ctx,
        200,
        await run(cases.publishContract({ caller, templateId, ...(idempotency && { idempotency }) })),
      );
    }),
  );

  // A published template left out of new Requests, or let back in (ADR 3250).
  for (const [action, useCase] of [
    ['archive', cases.archiveContract],
    ['unarchive', cases.unarchiveContract],
  ] as const)
    router.post(
      `/v1.1/contracts/:id/${action}`,
      authed(async (ctx, caller) => {
        const templateId = integerIdParam(ctx.params.id, 'contract');
        const idempotency = idempotencyFrom(ctx);
        answer(ctx, 200, await run(useCase({ caller, templateId, ...(idempotency && { idempotency }) })));
      }),
    );

  // A new draft with a template's content, whatever its state (ADR 3260).
  router.post(
    '/v1.1/contracts/:id/copy',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      const body = bodyOf(CopyContractBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      const outcome = await run(
        cases.copyContract({ caller, templateId, body, ...(idempotency && { idempotency }) }),
      );
      answer(ctx, 201, outcome, '/v1.1/contracts');
    }),
  );

  router.put(
    '/v1.1/contracts/:id',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      const body = bodyOf(CreateContractBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      answer(
        ctx,
        200,
        await run(cases.replaceContract({ caller, templateId, body, ...(idempotency && { idempotency }) })),
      );
    }),
  );

  // A draft's name or fields without its document (ADR 3890).
  router.patch(
    '/v1.1/contracts/:id',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      const body = bodyOf(PatchContractBody, ctx);
      const idempotency = idempotencyFrom(ctx);
      answer(
        ctx,
        200,
        await run(cases.patchContract({ caller, templateId, body, ...(idempotency && { idempotency }) })),
      );
    }),
  );

  router.delete(
    '/v1.1/contracts/:id',
    authed(async (ctx, caller) => {
      const templateId = integerIdParam(ctx.params.id, 'contract');
      await run(cases.deleteContract({ caller, templateId }));
      ctx.status = 204;
    }),
  );
};
