import assert from 'node:assert/strict';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { DomainEvent, type RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { downloaded, signsAs } from '../support/executed-documents-fixture.js';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';

/**
 * ADR 3140 against real Postgres: a correction is stored in the Request's own copy of the
 * signer (the details fixed at send) with a new link, written with its event in one
 * statement, and leaves the Site's signer record as it was.
 */
describe('requests service: correcting a signer of a sent Request (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('signer-correction');
    template = await publishedTemplate(h.http);
    headers = await principal();
  });
  after(async () => {
    await h.close();
  });

  const sentRequest = async (): Promise<RequestView> => {
    const created = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({
          contracts: [template],
          signers: [
            { signer_id: 'client-7', signer: { email: 'jane@exmaple.com' }, send_to: { email: true } },
          ],
          fields: [
            { name: 'full_name', assigned_to: 'client-7' },
            { name: 'agree', assigned_to: 'client-7' },
            { name: 'signature', assigned_to: 'client-7' },
          ],
        })
        .expect(201)
    ).body as RequestView;
    await h.http.post(`/v1.1/requests/${created.id}/send`).set(headers).expect(200);
    return created;
  };

  const row = (requestId: string) =>
    db.one(
      h.pool,
      t.type({
        sent_email: t.union([t.string, t.null]),
        sent_mobile_number: t.union([t.string, t.null]),
        send_email: t.boolean,
        send_sms: t.boolean,
        link_version: t.number,
        contact_fixed: t.boolean,
      }),
      sql.unsafe`SELECT sent_email, sent_mobile_number, send_email, send_sms, link_version, contact_fixed
        FROM request_signers WHERE request_id = ${requestId}`,
    );

  it('stores the new details and link in the Request, with its event, and leaves the Site’s signer alone', async () => {
    const request = await sentRequest();
    await h.http
      .patch(`/v1.1/requests/${request.id}/signers/client-7`)
      .set(headers)
      .send({
        signer: { email: 'jane@example.com', mobile_number: '5552001111' },
        send_to: { mobile_number: true },
      })
      .expect(200);
    assert.deepEqual(await row(request.id), {
      sent_email: 'jane@example.com',
      sent_mobile_number: '15552001111',
      send_email: true,
      send_sms: true,
      link_version: 1,
      contact_fixed: true,
    });
    const site = await db.one(
      h.pool,
      t.type({ email: t.union([t.string, t.null]), mobile_number: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT email, mobile_number FROM signers WHERE site_id = ${SITE_A.id} AND signer_id = 'client-7'`,
    );
    assert.deepEqual(
      site,
      { email: 'jane@exmaple.com', mobile_number: null },
      'the Site’s record is the client’s to upsert',
    );
    const events = await db.any(
      h.pool,
      t.type({ type: t.string, envelope: t.unknown }),
      sql.unsafe`SELECT type, envelope FROM outbox WHERE envelope->>'aggregate_id' = ${request.id} ORDER BY seq`,
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['request.created', 'request.sent', 'request.signer_updated', 'request.reminded'],
    );
    const updated = DomainEvent.decode(events[2]!.envelope);
    assert.ok(E.isRight(updated), 'the shared codec reads it');
    assert.deepEqual(updated.right.data, {
      request_id: request.id,
      signer_id: 'client-7',
      signer_ref: request.signers[0]!.signer_ref,
      email: 'jane@example.com',
      mobile_number: '15552001111',
      send_to: { email: true, mobile_number: true },
      previous: {
        email: 'jane@exmaple.com',
        mobile_number: null,
        send_to: { email: true, mobile_number: false },
      },
      corrected_by: 'user-1',
      link_replaced: true,
      changed: ['email', 'mobile_number', 'send_to'],
    });
    const told = (events[3]!.envelope as { data: { signers: { email: string; send_to: unknown }[] } }).data
      .signers;
    assert.equal(told[0]!.email, 'jane@example.com', 'the message goes to the corrected address');
    assert.equal(
      (events[3]!.envelope as { data: { readdressed?: boolean } }).data.readdressed,
      true,
      'an invitation to it, not a reminder (ADR 3420)',
    );

    // The view reads the Request's copy, not the Site's record.
    const view = (await h.http.get(`/v1.1/requests/${request.id}`).set(headers).expect(200))
      .body as RequestView;
    assert.equal(view.signers[0]!.email, 'jane@example.com');
  });

  it('names each correction in the executed document’s audit trail: when, by whom, from what to what', async () => {
    const request = await sentRequest();
    const corrected = (
      await h.http
        .patch(`/v1.1/requests/${request.id}/signers/client-7`)
        .set(headers)
        .send({ signer: { email: 'jane@example.com' }, notify: false })
        .expect(200)
    ).body as RequestView;
    await signsAs(h, corrected.signers[0]!.request_url, 'Jane Q. Client');
    const { text } = await pdfText(await downloaded(h, headers, request.id));
    const trail = text.replace(/\s+/g, ' ');
    assert.match(trail, /Contact corrected: \S+ by user-1/, trail);
    assert.ok(trail.includes('E-mail: jane@exmaple.com → jane@example.com'), trail);
    assert.ok(trail.includes('New link: issued; earlier links stopped opening'), trail);
    assert.ok(!trail.includes('Channels:'), 'the channels did not change');
  });

  it('stores nothing when refused', async () => {
    const request = await sentRequest();
    const before = await row(request.id);
    await h.http
      .patch(`/v1.1/requests/${request.id}/signers/client-7`)
      .set(headers)
      .send({ signer: { email: 'jane@example.com', mobile_number: '4165550123' } })
      .expect(422);
    assert.deepEqual(await row(request.id), before);
    const kept = await db.one(
      h.pool,
      t.type({ n: t.number }),
      sql.unsafe`SELECT count(*)::int AS n FROM request_signer_corrections WHERE request_id = ${request.id}`,
    );
    assert.equal(kept.n, 0, 'no correction for the audit trail either');
  });
});
