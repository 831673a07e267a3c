import type { KeyObject } from 'node:crypto';
import { EmbeddedUrlBody, PRINCIPAL_HEADER, problem } from '@esign/contracts';
import { decodeBody, HttpProblem, invalidBody, runWith, uuidParam, type AppState } from '@esign/platform';
import type Router from '@koa/router';
import type { EmbeddedUrlError, EmbeddedUseCases } from '../../application/embedded-signing.js';
import { callerOf } from './principal.js';
import { problemOf } from './problems.js';

const embeddedProblemOf = (error: EmbeddedUrlError): HttpProblem => {
  switch (error._tag) {
    case 'InvalidParentOrigin':
      return invalidBody([{ path: 'parent_origin', message: error.message }]);
    case 'EmbeddedNotOpen':
      return new HttpProblem(
        problem({ status: 409, code: 'invalid_state', title: 'Conflict', detail: error.reason }),
      );
    default:
      return problemOf(error);
  }
};

const run = runWith(embeddedProblemOf);

/**
 * `POST /v1.1/requests/:id/signers/:signer_id/embedded_url` (ADR 2300): a single-use,
 * 5-minute URL of the signer's page for an iframe on one of the token's app's origins.
 */
export const mountEmbeddedUrlRoute = (
  router: Router<AppState>,
  cases: EmbeddedUseCases,
  options: { readonly gatewayPublicKey: KeyObject },
): void => {
  router.post('/v1.1/requests/:id/signers/:signer_id/embedded_url', async (ctx) => {
    const caller = await callerOf(options.gatewayPublicKey, ctx.get(PRINCIPAL_HEADER) || undefined);
    const requestId = uuidParam(ctx.params.id, 'request');
    const body = decodeBody(EmbeddedUrlBody, ctx);
    ctx.status = 200;
    ctx.body = await run(
      cases.createEmbeddedUrl({
        caller,
        requestId,
        signerId: ctx.params.signer_id ?? '',
        parentOrigin: body.parent_origin,
      }),
    );
  });
};
