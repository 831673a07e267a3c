import type { RequestView, SiteGrant } from '@esign/contracts';
import { oneSignerAgreement } from './executed-documents-fixture.js';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from './harness.js';

/** What a history or feed test works with, once the suite's `before` has run. */
export interface HistoryContext {
  h: Harness;
  /** A principal reaching `sites`. */
  headers: Record<string, string>;
  /** A published one-signer template of SITE_A. */
  template: number;
}

/**
 * The hooks of the tests of Requests' histories and the Site feed (ADRs 3170, 3190),
 * registered in the calling `describe`: a harness on its own database, a principal for
 * `sites`, a published template on SITE_A; and `create`, a one-signer Request of it, sent
 * with `send`.
 */
export const historyFixture = (label: string, sites: readonly SiteGrant[] = [SITE_A]) => {
  const ctx = {} as HistoryContext;
  before(async () => {
    ctx.h = await startHarness(label);
    ctx.headers = await principal(sites);
    ctx.template = await publishedTemplate(ctx.h.http, SITE_A, htmlTemplateBody({ name: 'Agreement' }));
  });
  after(async () => {
    await ctx.h?.close();
  });
  const create = async (send = false): Promise<RequestView> => {
    const view = (
      await ctx.h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(ctx.headers)
        .send(oneSignerAgreement(ctx.template))
        .expect(201)
    ).body as RequestView;
    if (send) await ctx.h.http.post(`/v1.1/requests/${view.id}/send`).set(ctx.headers).expect(200);
    return view;
  };
  /** The Request as `GET /v1.1/requests/:id` answers it. */
  const read = async (id: string): Promise<RequestView> =>
    (await ctx.h.http.get(`/v1.1/requests/${id}`).set(ctx.headers).expect(200)).body as RequestView;
  /** Its history's entries, oldest first. */
  const history = async (id: string) =>
    (
      (await ctx.h.http.get(`/v1.1/requests/${id}/events`).set(ctx.headers).expect(200)).body as {
        data: { type: string; data: Record<string, unknown> }[];
      }
    ).data;
  /** A call on a Request's `suffix` (`/signers`, `/contracts`) with a body and, given one, an Idempotency-Key. */
  const callOn = (method: 'post' | 'put', suffix: string) => (id: string, body: unknown, key?: string) => {
    const call = ctx.h.http[method](`/v1.1/requests/${id}${suffix}`).set(ctx.headers);
    return (key === undefined ? call : call.set('Idempotency-Key', key)).send(body as object);
  };
  return { ctx, create, read, history, callOn };
};

/** A second template beside the fixture's Agreement: it shares `signature` and brings `order_signature` and `amount`. */
export const orderTemplateBody = () =>
  htmlTemplateBody({
    name: 'Order',
    html: '<p>{{client_name}} orders for {{amount}}.</p>',
    fields: [
      { name: 'signature', type: 'signature' },
      { name: 'order_signature', type: 'signature' },
    ],
  });
