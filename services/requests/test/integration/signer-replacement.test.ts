import assert from 'node:assert/strict';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { DomainEvent, type RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { downloaded, signsAs } from '../support/executed-documents-fixture.js';
import { principal, publishedTemplate, SITE_A, startHarness, type Harness } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';

/**
 * ADR 3550 against real Postgres: someone else signs in the place of a sent Request's
 * signer. The place's row takes the new signer_id (its fields follow, the Site's signer is
 * upserted) in the one statement that stores the event; the old link stops opening, the
 * new one signs, and the audit trail names who was replaced.
 */
describe('requests service: replacing a signer of a sent Request (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;
  let headers: Record<string, string>;

  before(async () => {
    h = await startHarness('signer-replacement');
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
            { signer_id: 'client-7', signer: { email: 'jane@example.com' }, send_to: { email: true } },
          ],
          fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: 'client-7' })),
        })
        .expect(201)
    ).body as RequestView;
    return (await h.http.post(`/v1.1/requests/${created.id}/send`).set(headers).expect(200))
      .body as RequestView;
  };
  const replace = (id: string, signerId: string, body: unknown) =>
    h.http
      .post(`/v1.1/requests/${id}/signers/${encodeURIComponent(signerId)}/replace`)
      .set(headers)
      .send(body as object);
  const stored = (requestId: string) =>
    db.one(
      h.pool,
      t.type({ signers: t.unknown, fields: t.unknown, corrections: t.number }),
      sql.unsafe`SELECT
        (SELECT json_agg(json_build_array(signer_id, sent_email, link_version, viewed_at IS NOT NULL))
           FROM request_signers WHERE request_id = ${requestId}) AS signers,
        (SELECT json_agg(assigned_to ORDER BY position) FROM request_fields WHERE request_id = ${requestId}) AS fields,
        (SELECT count(*)::int FROM request_signer_corrections WHERE request_id = ${requestId}) AS corrections`,
    );
  const openLink = async (url: string) => {
    const u = new URL(url);
    return (await h.http.get(`${u.pathname}${u.search}`)).status;
  };

  it('puts the new signer in the place with their fields, upserts them on the Site, and invites them', async () => {
    const request = await sentRequest();
    const oldUrl = request.signers[0]!.request_url;
    assert.equal(await openLink(oldUrl), 200, 'Jane opened her link');
    const answer = await replace(request.id, 'client-7', {
      signer_id: 'client-8',
      signer: { email: 'sam@example.com', mobile_number: '5552001111' },
    }).expect(200);
    const view = answer.body as RequestView;
    assert.deepEqual(
      view.signers.map((s) => [s.signer_id, s.email, s.mobile_number, s.state, s.signer_ref]),
      [['client-8', 'sam@example.com', '15552001111', 'pending', request.signers[0]!.signer_ref]],
    );
    assert.deepEqual(await stored(request.id), {
      signers: [['client-8', 'sam@example.com', 1, false]],
      fields: ['client-8', 'client-8', 'client-8'],
      corrections: 1,
    });
    const site = await db.one(
      h.pool,
      t.type({ email: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT email FROM signers WHERE site_id = ${SITE_A.id} AND signer_id = 'client-8'`,
    );
    assert.equal(site.email, 'sam@example.com', 'the Site’s signer upserted, as a create does');

    const events = await db.any(
      h.pool,
      t.type({ type: t.string, envelope: t.unknown }),
      sql.unsafe`SELECT type, envelope FROM outbox WHERE envelope->>'aggregate_id' = ${request.id} ORDER BY seq`,
    );
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'request.created',
        'request.sent',
        'request.viewed',
        'request.signer_updated',
        'request.reminded',
        'notice.replaced',
      ],
    );
    const updated = DomainEvent.decode(events[3]!.envelope);
    assert.ok(E.isRight(updated), 'the shared codec reads it');
    assert.deepEqual(updated.right.data, {
      request_id: request.id,
      signer_id: 'client-8',
      signer_ref: request.signers[0]!.signer_ref,
      email: 'sam@example.com',
      mobile_number: '15552001111',
      send_to: { email: true, mobile_number: false },
      previous: {
        signer_id: 'client-7',
        email: 'jane@example.com',
        mobile_number: null,
        send_to: { email: true, mobile_number: false },
      },
      corrected_by: 'user-1',
      link_replaced: true,
      changed: ['signer_id', 'email', 'mobile_number'],
      previous_notified: true,
    });
    const invited = (events[4]!.envelope as { data: { readdressed?: boolean; signers: { email: string }[] } })
      .data;
    assert.deepEqual([invited.readdressed, invited.signers.map((s) => s.email)], [true, ['sam@example.com']]);
    // Jane, who was sent the Request, is told she need not sign: at her address, her old link.
    const released = DomainEvent.decode(events[5]!.envelope);
    assert.ok(E.isRight(released) && released.right.type === 'notice.replaced');
    assert.deepEqual(
      (released.right.data as { signers: unknown[] }).signers.map((s) => {
        const { signer_id, email, send_to, request_url } = s as Record<string, unknown>;
        return { signer_id, email, send_to, request_url };
      }),
      [
        {
          signer_id: 'client-7',
          email: 'jane@example.com',
          send_to: { email: true, mobile_number: false },
          request_url: oldUrl,
        },
      ],
    );

    assert.equal(await openLink(oldUrl), 410, 'Jane’s link stopped opening');
    const told = await h.http.get(`${new URL(oldUrl).pathname}${new URL(oldUrl).search}`);
    assert.match(told.text, /You are no longer asked to sign/);
    assert.match(told.text, /Someone else was asked to sign this document in your place/);
    assert.equal(await openLink(view.signers[0]!.request_url), 200, 'Sam’s opens');
  });

  it('lets the new signer sign, and names the replacement in the executed document’s audit trail', async () => {
    const request = await sentRequest();
    const replaced = (
      await replace(request.id, 'client-7', { signer_id: 'sam@example.com', notify: false }).expect(200)
    ).body as RequestView;
    await signsAs(h, replaced.signers[0]!.request_url, 'Sam Signer');
    const { text } = await pdfText(await downloaded(h, headers, request.id));
    const trail = text.replace(/\s+/g, ' ');
    assert.match(trail, /Signer replaced: \S+ by user-1/, trail);
    assert.ok(trail.includes('Signer: client-7 → sam@example.com'), trail);
    assert.ok(trail.includes('E-mail: jane@example.com → sam@example.com'), trail);
  });

  it('refuses by field and by state, storing nothing', async () => {
    const request = await sentRequest();
    const before = await stored(request.id);
    const paths = async (signerId: string, body: unknown, status = 422) =>
      (
        (await replace(request.id, signerId, body).expect(status)).body as { errors?: { path: string }[] }
      ).errors?.map((e) => e.path);
    assert.deepEqual(await paths('client-7', { signer_id: 'client-7' }), ['signer_id']);
    assert.deepEqual(await paths('client-7', { signer_id: 'x', signer: { mobile_number: '4165550123' } }), [
      'signer.mobile_number',
    ]);
    assert.deepEqual(await paths('client-7', { signer_id: 'x', order: 2 }), ['order']);
    assert.deepEqual(await paths('client-7', {}), ['signer_id']);
    await replace(request.id, 'nobody', { signer_id: 'x' }).expect(404);
    assert.deepEqual(await stored(request.id), before);

    const draft = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({ contracts: [template], signers: [{ signer_id: 'client-7' }] })
        .expect(201)
    ).body as RequestView;
    const refused = await replace(draft.id, 'client-7', { signer_id: 'client-8' }).expect(409);
    assert.match(String(refused.body.detail), /removing them .* and adding the new one/);
  });
});
