import type { KeyObject } from 'node:crypto';
import { PRINCIPAL_HEADER, type FieldError, type PageRequest, type TestMessageList } from '@esign/contracts';
import type Router from '@koa/router';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { invalidQuery, pageQuery, uuidParam, type AppState } from '@esign/platform';
import { callerOf } from './principal.js';

export type ListTestMessages = (input: {
  readonly siteIds: readonly number[];
  readonly requestId: string;
  readonly page: PageRequest;
}) => TE.TaskEither<never, TestMessageList>;

/**
 * `GET /v1.1/requests/:id/messages` (through the gateway): the messages a test-mode
 * Request would have sent, as kept by the notifier (ADR 2200). Scoped by the principal's
 * Sites like every read.
 */
export const mountTestMessageRoutes = (
  router: Router<AppState>,
  list: ListTestMessages,
  options: { readonly gatewayPublicKey: KeyObject },
): void => {
  router.get('/v1.1/requests/:id/messages', async (ctx) => {
    const caller = await callerOf(options.gatewayPublicKey, ctx.get(PRINCIPAL_HEADER) || undefined);
    const requestId = uuidParam(ctx.params.id, 'request');
    const errors: FieldError[] = [];
    const page = pageQuery(ctx.query, errors, { known: [] });
    if (errors.length > 0) throw invalidQuery(errors);
    ctx.body = await TE.toUnion(list({ siteIds: caller.sites.map((s) => s.id), requestId, page }))();
  });
};
