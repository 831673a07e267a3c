import type { EsignSystem } from '@esign/testing';
import { ownerWithTemplate } from './web-app.js';

/** A JSON call to the gateway: method, body, the status expected; answers the body. */
export type GatewayJson = (
  path: string,
  method?: string,
  body?: unknown,
  status?: number,
) => Promise<Record<string, unknown>>;

/**
 * Through the API: a Request of the published `contract` for one e-mail signer, who fills
 * its one signature field, sent, so its e-mail and `request.sent` go out. `extra` adds to
 * the Request's body (render_data, expires_at, …). Answers the Request's id.
 */
export const sentRequestOf = async (
  json: GatewayJson,
  site: number,
  contract: unknown,
  signer: string,
  extra: Readonly<Record<string, unknown>> = {},
): Promise<string> => {
  const request = await json(
    `/v1.1/sites/${site}/requests`,
    'POST',
    {
      contracts: [contract],
      signers: [{ signer_id: signer, send_to: { email: true } }],
      fields: [{ name: 'signature', assigned_to: signer }],
      ...extra,
    },
    201,
  );
  await json(`/v1.1/requests/${String(request.id)}/send`, 'POST');
  return String(request.id);
};

/**
 * Through the API: a published HTML contract with one signature field, and a Request of it
 * for one e-mail signer, sent, so its e-mail and `request.sent` go out. Answers the
 * Request's id.
 */
export const sentOneSignerRequest = async (
  json: GatewayJson,
  site: number,
  contract: { readonly name: string; readonly html: string; readonly signer: string },
): Promise<string> => {
  const created = await json(
    `/v1.1/sites/${site}/contracts`,
    'POST',
    {
      type: 'html',
      name: contract.name,
      html: contract.html,
      fields: [{ name: 'signature', type: 'signature' }],
    },
    201,
  );
  await json(`/v1.1/contracts/${String(created.id)}/publish`, 'POST');
  return sentRequestOf(json, site, created.id, contract.signer);
};

/** The template of ownerWithSentRequest's Request, with one signature field. */
const SERVICE_AGREEMENT = {
  name: 'Service agreement',
  html: '<p>Agreement with {{client_name}}</p>',
  fields: [{ name: 'signature', type: 'signature' }],
};

/**
 * A sent Request's page, before the browser opens: an account whose owner signs in with
 * `password` (ownerWithTemplate), and a Request of its "Service agreement" for `signer`
 * (client_name: Ann Lee), made and sent through the API as a client would; `request` adds
 * to its body. Answers the Request's id, its page's URL, and the owner's API (`json`).
 */
export const ownerWithSentRequest = async (
  system: EsignSystem,
  input: {
    readonly account: string;
    readonly owner: string;
    readonly password: string;
    readonly signer: string;
    readonly request?: Readonly<Record<string, unknown>>;
  },
): Promise<{ readonly id: string; readonly url: string; readonly json: GatewayJson }> => {
  const { site, template, json } = await ownerWithTemplate(system, { ...input, template: SERVICE_AGREEMENT });
  const id = await sentRequestOf(json, site, template, input.signer, {
    render_data: { client_name: 'Ann Lee' },
    ...input.request,
  });
  return { id, url: `${system.gatewayUrl}/app/requests/${id}`, json };
};
