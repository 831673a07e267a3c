import type { Schemas } from '@esign/client';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { clientOf, ok, publishedAgreement, type ClientOf } from './flow.js';

/** What the client-flow suites run against: the whole system, two tenants, Acme's published template. */
export interface ClientFlowContext {
  system: EsignSystem;
  acme: ClientOf;
  globex: ClientOf;
  template: number;
}

/**
 * The whole system started before the suite and stopped after it, with tenants Acme and
 * Globex and Acme's agreement template; `create`, `get` and `list` call through the typed
 * client (@esign/client, generated from the OpenAPI document). Call it inside `describe`.
 */
export const clientFlowFixture = (label: string) => {
  const ctx = {} as ClientFlowContext;
  before(async () => {
    ctx.system = await startEsignSystem({ label });
    const [a, g] = await Promise.all([ctx.system.createTenant('Acme'), ctx.system.createTenant('Globex')]);
    ctx.acme = clientOf(ctx.system, a);
    ctx.globex = clientOf(ctx.system, g);
    ctx.template = await publishedAgreement(ctx.acme);
  });
  after(async () => {
    await ctx.system?.stop();
  });
  const create = async (body: Schemas['CreateRequestBody'], client?: ClientOf) => {
    const by = client ?? ctx.acme;
    return ok(
      await by.esign.POST('/v1.1/sites/{site_id}/requests', { params: { path: { site_id: by.site } }, body }),
      201,
      'create',
    );
  };
  const get = async (id: string) =>
    ok(
      await ctx.acme.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: id } } }),
      200,
      'get',
    );
  const list = async (state: Schemas['RequestState']) =>
    ok(
      await ctx.acme.esign.GET('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: ctx.acme.site }, query: { state, per_page: 100 } },
      }),
      200,
      'list',
    );
  return { ctx, create, get, list };
};
