import type { RequestView } from '@esign/contracts';
import { SITE_A, type Harness } from './harness.js';
import { pathOf } from './signer-forms.js';

/** The one signer of `madeForOneSigner`'s Requests. */
export const ONE_SIGNER = 'signer@example.com';

/**
 * A draft of `template` (an `htmlTemplateBody` one, published, on SITE_A) for one signer who
 * fills in every field named, some pre-filled with `defaults`: its id.
 */
export const madeForOneSigner = async (
  h: Harness,
  headers: Record<string, string>,
  template: number,
  fields: readonly { readonly name: string }[],
  defaults: Readonly<Record<string, string | boolean>> = {},
): Promise<string> => {
  const made = await h.http
    .post(`/v1.1/sites/${SITE_A.id}/requests`)
    .set(headers)
    .send({
      contracts: [template],
      signers: [{ signer_id: ONE_SIGNER }],
      fields: fields.map(({ name }) => ({
        name,
        assigned_to: ONE_SIGNER,
        ...(defaults[name] !== undefined && { default_value: defaults[name] }),
      })),
      render_data: { client_name: 'Client', start_date: '2030-01-01' },
    })
    .expect(201);
  return (made.body as RequestView).id;
};

/** Sends the draft `id` and opens its one signer's page: the page's HTML. */
export const sentAndOpened = async (
  h: Harness,
  headers: Record<string, string>,
  id: string,
): Promise<string> => {
  const sent = (await h.http.post(`/v1.1/requests/${id}/send`).set(headers).expect(200)).body as RequestView;
  return (await h.http.get(pathOf(sent.signers[0]!.request_url)).expect(200)).text;
};
