import request from 'supertest';
import { appWith, COOKIE, CURRENT, page, REQUEST_ID as ID, requestView } from './fake-api.js';

/** The Requests of the tests of a draft's signers added and removed (ADR 3280), over the fake API. */

export const SENT = requestView('sent');
export const ANN = SENT.signers[0]!;
/** A signer id with what a path segment must carry encoded. */
export const ODD = 'bob/x@example.com';
export const BOB = { ...ANN, signer_id: ODD, signer_ref: 'ref-bob', email: 'bob@example.com' };
/** A draft of ann and bob: full_name is ann's, agree bob's. */
export const DRAFT = {
  ...SENT,
  state: 'draft',
  sent_at: null,
  signers: [ANN, BOB],
  fields: [
    { name: 'full_name', assigned_to: 'ann@example.com', default_value: null },
    { name: 'agree', assigned_to: ODD, default_value: null },
  ],
};
/** A draft of ann alone, without fields. */
export const ALONE = { ...DRAFT, signers: [ANN], fields: [] };

/** The Request page over `view` with its History (`events`), reached as `query` names it (a redirect's). */
export const shown = async (view: unknown, query = '', events: unknown[] = []) =>
  (
    await request(
      appWith({
        'GET /v1.1/sessions/current': CURRENT,
        [`GET /v1.1/requests/${ID}`]: view,
        [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: page(events),
      }).callback,
    )
      .get(`/app/requests/${ID}${query}`)
      .set('Cookie', COOKIE)
      .expect(200)
  ).text;
