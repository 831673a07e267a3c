import {
  ReissueExecutionUrlBody,
  ReplaceRequestSignerBody,
  SignerEntry,
  UpdateRequestSignerBody,
} from '@esign/contracts';
import { uuidParam, type AppContext, type AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { Caller } from '../../application/caller.js';
import type { UseCases } from '../../application/use-cases.js';
import type { Authed } from './contract-routes.js';
import { answer, bodyOf, idempotencyFrom, run } from './route-helpers.js';

/**
 * A Request's signers, one at a time: a draft's added and removed (ADR 3280), a new link
 * (ADR 1321), a correction (ADRs 3140, 3290) and, on a sent Request, someone else in a
 * signer's place (ADR 3550); each answers the Request.
 */
export const mountRequestSignerRoutes = (router: Router<AppState>, cases: UseCases, authed: Authed): void => {
  /**
   * The Request and the signer a call on one signer names: the client's signer_id,
   * percent-encoded in the path; with the call's Idempotency-Key.
   */
  const oneSigner = (ctx: AppContext, caller: Caller) => {
    const requestId = uuidParam(ctx.params.id, 'request');
    const idempotency = idempotencyFrom(ctx);
    return { caller, requestId, signerId: ctx.params.signer_id ?? '', ...(idempotency && { idempotency }) };
  };

  // One more signer on a draft (ADR 3280): an element of the create's `signers`. A signer
  // has no URL of its own, so the 201 names none; its answer is the Request.
  router.post(
    '/v1.1/requests/:id/signers',
    authed(async (ctx, caller) => {
      const requestId = uuidParam(ctx.params.id, 'request');
      const entry = bodyOf(SignerEntry, ctx);
      const idempotency = idempotencyFrom(ctx);
      answer(
        ctx,
        201,
        await run(cases.addRequestSigner({ caller, requestId, entry, ...(idempotency && { idempotency }) })),
      );
    }),
  );

  // One signer fewer on a draft (ADR 3280); the fields that were theirs are left unassigned.
  router.delete(
    '/v1.1/requests/:id/signers/:signer_id',
    authed(async (ctx, caller) => {
      answer(ctx, 200, await run(cases.removeRequestSigner(oneSigner(ctx, caller))));
    }),
  );

  // A new Execution URL for one signer, the old ones dead (ADR 1321).
  router.post(
    '/v1.1/requests/:id/signers/:signer_id/execution_url',
    authed(async (ctx, caller) => {
      const target = oneSigner(ctx, caller);
      const body = bodyOf(ReissueExecutionUrlBody, ctx);
      answer(ctx, 200, await run(cases.reissueExecutionUrl({ ...target, notify: body.notify ?? false })));
    }),
  );

  // Corrects how one signer of a sent Request is reached (ADR 3140); a draft's signer (ADRs 3200, 3290).
  router.patch(
    '/v1.1/requests/:id/signers/:signer_id',
    authed(async (ctx, caller) => {
      const target = oneSigner(ctx, caller);
      const body = bodyOf(UpdateRequestSignerBody, ctx);
      const correction = {
        ...(body.signer?.email !== undefined && { email: body.signer.email }),
        ...(body.signer?.mobile_number !== undefined && { mobileNumber: body.signer.mobile_number }),
        ...(body.send_to !== undefined && {
          sendTo: {
            ...(body.send_to.email !== undefined && { email: body.send_to.email }),
            ...(body.send_to.mobile_number !== undefined && { sms: body.send_to.mobile_number }),
          },
        }),
        // A draft's only (ADR 3290).
        ...(body.order !== undefined && { order: body.order }),
        ...(body.authentication !== undefined && { authentication: body.authentication }),
        ...(body.locale !== undefined && { locale: body.locale }),
      };
      answer(
        ctx,
        200,
        await run(cases.correctRequestSigner({ ...target, correction, notify: body.notify ?? true })),
      );
    }),
  );

  // Someone else signs in the place of a signer of a sent Request who has not signed (ADR 3550).
  router.post(
    '/v1.1/requests/:id/signers/:signer_id/replace',
    authed(async (ctx, caller) => {
      const body = bodyOf(ReplaceRequestSignerBody, ctx);
      answer(ctx, 200, await run(cases.replaceRequestSigner({ ...oneSigner(ctx, caller), body })));
    }),
  );
};
