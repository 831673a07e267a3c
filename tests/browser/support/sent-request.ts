/** A JSON call to the gateway: method, body, the status expected; answers the body. */
export type GatewayJson = (
  path: string,
  method?: string,
  body?: unknown,
  status?: number,
) => Promise<Record<string, unknown>>;

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
  const request = await json(
    `/v1.1/sites/${site}/requests`,
    'POST',
    {
      contracts: [created.id],
      signers: [{ signer_id: contract.signer, send_to: { email: true } }],
      fields: [{ name: 'signature', assigned_to: contract.signer }],
    },
    201,
  );
  await json(`/v1.1/requests/${String(request.id)}/send`, 'POST');
  return String(request.id);
};
