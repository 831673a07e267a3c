/**
 * What every create run needs first: a tenant, a published template, and the headers of
 * both paths (through the gateway with the tenant's token; straight to requests with a
 * principal minted the way the gateway mints it).
 */
import { createEsignClient } from '@esign/client';
import { PRINCIPAL_AUDIENCES, PRINCIPAL_HEADER } from '@esign/contracts';
import type { EsignSystem } from '@esign/testing';
import { TEMPLATE, answer } from './bodies.js';

export const prepareCreates = async (system: EsignSystem, name: string) => {
  const tenant = await system.createTenant(name);
  const auth = { authorization: `Bearer ${tenant.token.accessToken}`, 'content-type': 'application/json' };
  // Set-up and the send phase use the typed client (@esign/client); autocannon drives the
  // measured create and read runs with raw requests, as a load generator must.
  const esign = createEsignClient({ baseUrl: system.gatewayUrl, accessToken: tenant.token.accessToken });
  const template = answer(
    await esign.POST('/v1.1/sites/{site_id}/contracts', {
      params: { path: { site_id: tenant.site.id } },
      body: TEMPLATE,
    }),
    201,
  ).id;
  answer(
    await esign.POST('/v1.1/contracts/{contract_id}/publish', {
      params: { path: { contract_id: template } },
    }),
    200,
  );
  const principal = await system.principalKeys.sign(PRINCIPAL_AUDIENCES.requests, {
    sub: tenant.user.id,
    token_id: tenant.token.id,
    sites: [{ id: tenant.site.id, name: tenant.site.name }],
  });
  const direct = { [PRINCIPAL_HEADER]: principal, 'content-type': 'application/json' };
  const createPath = `/v1.1/sites/${tenant.site.id}/requests`;
  return { tenant, esign, template, auth, direct, createPath };
};
