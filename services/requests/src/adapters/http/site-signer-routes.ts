import type { KeyObject } from 'node:crypto';
import { NonEmptyString, PRINCIPAL_HEADER, PutSiteSignerBody, type FieldError } from '@esign/contracts';
import {
  decodeBody,
  integerIdParam,
  invalidBody,
  invalidQuery,
  pageQuery,
  runWith,
  type AppState,
} from '@esign/platform';
import type Router from '@koa/router';
import type { SiteSignerUseCases } from '../../application/site-signers.js';
import { callerOf } from './principal.js';
import { searchOf } from './params.js';
import { problemOf } from './problems.js';

const run = runWith(problemOf);

/** The client's `signer_id`, percent-encoded in the path (the router decodes it). */
const signerIdOf = (raw: string | undefined): string => {
  const signerId = raw ?? '';
  if (NonEmptyString.is(signerId)) return signerId;
  throw invalidBody(
    [
      {
        path: 'signer_id',
        message: signerId === '' ? 'must not be empty' : 'must be at most 255 characters',
      },
    ],
    'The signer_id in the path is invalid.',
  );
};

/**
 * A Site's signers on their own (ADR 3200): `GET /v1.1/sites/:id/signers` (`q` searches),
 * and on `/v1.1/sites/:id/signers/:signer_id` `GET`, `PUT` (the upsert a create's `signers`
 * entry does) and `DELETE` (only a signer no Request names).
 */
export const mountSiteSignerRoutes = (
  router: Router<AppState>,
  cases: SiteSignerUseCases,
  options: { readonly gatewayPublicKey: KeyObject },
): void => {
  const caller = (header: string) => callerOf(options.gatewayPublicKey, header || undefined);

  router.get('/v1.1/sites/:id/signers', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const siteId = integerIdParam(ctx.params.id, 'site');
    const errors: FieldError[] = [];
    const page = pageQuery(ctx.query, errors, { known: ['q'] });
    const search = searchOf(ctx.query.q, errors);
    if (errors.length > 0) throw invalidQuery(errors);
    ctx.body = await run(cases.listSiteSigners(who, siteId, page, search));
  });

  router.get('/v1.1/sites/:id/signers/:signer_id', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const siteId = integerIdParam(ctx.params.id, 'site');
    ctx.body = await run(cases.getSiteSigner(who, siteId, ctx.params.signer_id ?? ''));
  });

  router.delete('/v1.1/sites/:id/signers/:signer_id', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const siteId = integerIdParam(ctx.params.id, 'site');
    await run(cases.deleteSiteSigner(who, siteId, ctx.params.signer_id ?? ''));
    ctx.status = 204;
  });

  router.put('/v1.1/sites/:id/signers/:signer_id', async (ctx) => {
    const who = await caller(ctx.get(PRINCIPAL_HEADER));
    const siteId = integerIdParam(ctx.params.id, 'site');
    const signerId = signerIdOf(ctx.params.signer_id);
    const body = decodeBody(PutSiteSignerBody, ctx);
    const { view, created } = await run(cases.putSiteSigner(who, siteId, signerId, body));
    ctx.status = created ? 201 : 200;
    if (created) ctx.set('Location', ctx.path);
    ctx.body = view;
  });
};
