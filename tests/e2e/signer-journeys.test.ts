// Issue 20 end to end through the gateway, against the whole system with the test SMTP
// server and the Twilio-API stub: signers in order (orders 1, 1, 2), signers who prove
// who they are (an access code, an e-mailed one-time code). The requests service runs with
// a wall clock the test can move (libfaketime, see libs/testing/src/shiftable-clock.ts), so
// a lock can run out without waiting 15 minutes.
import assert from 'node:assert/strict';
import type { Schemas } from '@esign/client';
import {
  eventually,
  shiftableClock,
  startEsignSystem,
  type EsignSystem,
  type ShiftableClock,
} from '@esign/testing';
import { conformingFetch } from './support/conformance.js';
import {
  clientOf,
  executionUrlIn,
  mailsTo,
  ok,
  publishedAgreement,
  unique,
  waitForMail,
  type ClientOf,
} from './support/flow.js';
import { postSignerForm, signAt } from './support/signer.js';

interface Problem {
  readonly code: string;
  readonly errors?: ReadonlyArray<{ path: string; message: string }>;
}

describe('end to end through the gateway: signer journeys (issue 20)', function () {
  this.timeout(180_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;
  let clock: ShiftableClock;

  before(async () => {
    clock = shiftableClock();
    system = await startEsignSystem({ label: 'e2e_signers', env: { requests: clock.env } });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
    clock?.dispose();
  });

  const create = async (body: Schemas['CreateRequestBody']) =>
    ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body,
      }),
      201,
      'create',
    );
  const send = async (id: string) =>
    ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', { params: { path: { request_id: id } } }),
      200,
      'send',
    );
  const get = async (id: string) =>
    ok(
      await acme.esign.GET('/v1.1/requests/{request_id}', { params: { path: { request_id: id } } }),
      200,
      'get',
    );

  /** The first mail to `address` whose subject matches and whose text names `requestId`. */
  const noticeMail = (address: string, subject: RegExp, requestId: string) =>
    eventually(
      () =>
        Promise.resolve(
          mailsTo(system, address).find(
            (m) => subject.test(m.mail.subject ?? '') && (m.mail.text ?? '').includes(requestId),
          ),
        ),
      15_000,
    );

  /** Three e-mail signers; the first takes the agreement's fields, the others only sign. */
  const threeSigners = (orders: readonly [number, number, number]) => {
    const run = unique();
    const emails = ['ada', 'bob', 'cy'].map((name) => `${name}-${run}@example.com`);
    const body: Schemas['CreateRequestBody'] = {
      contracts: [template],
      signers: emails.map((email, i) => ({ signer_id: email, send_to: { email: true }, order: orders[i]! })),
      fields: [
        { name: 'full_name', assigned_to: emails[0]! },
        { name: 'signature', assigned_to: emails[0]! },
        { name: 'witness_signature', assigned_to: emails[1]! },
      ],
      render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
    };
    return { emails, body };
  };

  describe('signing order', () => {
    it('orders 1, 1, 2: two signers told on send, the third only after both signed; before that its link says not yet', async () => {
      const { emails, body } = threeSigners([1, 1, 2]);
      const [ada, bob, cy] = emails as [string, string, string];
      const legal = `legal-${unique()}@example.com`;
      const created = await create({ ...body, cc: [legal] });
      assert.deepEqual(created.cc, [legal]);
      assert.deepEqual(
        created.signers.map((s) => s.order),
        [1, 1, 2],
      );
      const sent = await send(created.id);
      assert.equal(sent.current_order, 1);
      assert.deepEqual(
        sent.signers.map((s) => s.turn),
        [true, true, false],
      );

      const [adaMail, bobMail] = await Promise.all([waitForMail(system, ada), waitForMail(system, bob)]);
      const cyUrl = created.signers[2]!.request_url;
      const early = await conformingFetch(cyUrl);
      const earlyPage = await early.text();
      assert.equal(early.status, 409);
      assert.match(earlyPage, /not your turn to sign yet/);
      assert.ok(!earlyPage.includes('Jane Q. Client'), 'the contract is never shown before the turn');
      assert.ok(!earlyPage.includes('<form'), 'nothing to sign or decline before the turn');
      assert.equal(mailsTo(system, cy).length, 0, 'the second order is not told on send');

      assert.equal(
        (await get(created.id)).signers[2]!.viewed_at,
        null,
        'a link opened before its turn is not viewed',
      );
      const adaSigns = await signAt(executionUrlIn(adaMail.mail.text ?? ''), 'Ada Lovelace');
      assert.equal(adaSigns.status, 303, adaSigns.page.slice(0, 500));
      const halfway = await get(created.id);
      assert.ok(halfway.signers[0]!.viewed_at !== null, 'the first opening marks the signer viewed');
      assert.equal(halfway.signers[1]!.viewed_at, null);
      assert.equal(halfway.current_order, 1, 'one of the two parallel signers signed: still order 1');
      assert.equal((await conformingFetch(cyUrl)).status, 409);
      assert.equal(mailsTo(system, cy).length, 0);

      const bobSigns = await signAt(executionUrlIn(bobMail.mail.text ?? ''), 'Bob Builder');
      assert.equal(bobSigns.status, 303, bobSigns.page.slice(0, 500));
      const second = await get(created.id);
      assert.equal(second.current_order, 2);
      assert.deepEqual(
        second.signers.map((s) => s.turn),
        [false, false, true],
      );

      const cyMail = await waitForMail(system, cy);
      const cyMailUrl = executionUrlIn(cyMail.mail.text ?? '');
      assert.equal(cyMailUrl, cyUrl, 'the link becomes live at its turn without changing');
      const cySigns = await signAt(cyMailUrl, 'Cy Young');
      assert.equal(cySigns.pageStatus, 200, cySigns.page.slice(0, 500));
      assert.match(cySigns.page, /Jane Q\. Client/);
      assert.equal(cySigns.status, 303);
      const done = await get(created.id);
      assert.equal(done.state, 'completed');
      assert.equal(done.current_order, null);
      assert.equal(mailsTo(system, cy).filter((m) => m.mail.text?.includes('/sign?')).length, 1);

      // Completion: every signer is e-mailed a signed, expiring link to their copy.
      const completedMail = (address: string) =>
        eventually(
          () =>
            Promise.resolve(mailsTo(system, address).find((m) => /^Completed:/.test(m.mail.subject ?? ''))),
          15_000,
        );
      const copies = await Promise.all(emails.map(completedMail));
      const copyUrl = /https?:\/\/\S+\/sign\/copy\?\S+/.exec(copies[2]!.mail.text ?? '')?.[0];
      assert.ok(copyUrl !== undefined, copies[2]!.mail.text);
      const copy = await conformingFetch(copyUrl);
      assert.equal(copy.status, 200);
      assert.equal(copy.headers.get('content-type'), 'application/pdf');
      assert.equal(
        Buffer.from(await copy.arrayBuffer())
          .subarray(0, 5)
          .toString(),
        '%PDF-',
      );
      const tampered = new URL(copyUrl);
      tampered.searchParams.set('e', String(Number(tampered.searchParams.get('e')) + 86_400));
      assert.equal((await conformingFetch(tampered)).status, 403, 'the expiry is covered by the signature');

      // The carbon copy (ADR 3230) gets a copy of its own, and nothing before the end.
      const ccMail = await completedMail(legal);
      assert.equal(mailsTo(system, legal).length, 1, 'told once, at the end');
      const ccUrl = new URL(/https?:\/\/\S+\/sign\/copy\?\S+/.exec(ccMail.mail.text ?? '')?.[0] ?? '');
      assert.equal(ccUrl.searchParams.get('s'), 'cc.1');
      const ccCopy = await conformingFetch(ccUrl);
      assert.equal(ccCopy.status, 200);
      assert.equal(ccCopy.headers.get('content-type'), 'application/pdf');
      ccUrl.searchParams.set('s', 'cc.2');
      assert.equal((await conformingFetch(ccUrl)).status, 403, 'the reference is covered by the signature');

      // The creating user is told too (ADR 2003), with the Request's page in the web application.
      const creatorMail = await noticeMail(acme.tenant.user.email, /^Completed:/, created.id);
      assert.match(creatorMail.mail.text ?? '', /which you sent for signing from Acme/);
      assert.ok(
        (creatorMail.mail.text ?? '').includes(`${system.gatewayUrl}/app/requests/${created.id}`),
        creatorMail.mail.text,
      );
      assert.ok(!(creatorMail.mail.text ?? '').includes('/sign'), 'the creator gets no signer link');
    });

    it('a decline stops the chain: the later order is never told; the signer already told learns the reason', async () => {
      const { emails, body } = threeSigners([1, 1, 2]);
      const created = await create(body);
      await send(created.id);
      const mail = await waitForMail(system, emails[0]!);
      const url = new URL(executionUrlIn(mail.mail.text ?? ''));
      const page = await (await conformingFetch(url)).text();
      const token = /name="form_token" value="([^"]+)"/.exec(page)?.[1];
      const sha = /name="document_sha256" value="([^"]+)"/.exec(page)?.[1];
      assert.ok(token !== undefined && sha !== undefined, page.slice(0, 500));
      const declined = await postSignerForm(url, '/sign/decline', {
        form_token: token.replace(/&amp;/g, '&'),
        document_sha256: sha,
        reason: 'The price is wrong',
      });
      assert.equal(declined.status, 303);
      const view = await get(created.id);
      assert.equal(view.state, 'declined');
      assert.equal(view.current_order, null);
      assert.equal((await conformingFetch(created.signers[2]!.request_url)).status, 410);
      await new Promise((r) => setTimeout(r, 1000));
      const declinedMail = await noticeMail(emails[1]!, /^Declined:/, '');
      assert.match(declinedMail.mail.text ?? '', /The price is wrong/);
      assert.match(declinedMail.mail.text ?? '', new RegExp(`${emails[0]!.replace(/[.]/g, '\\.')} declined`));
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(mailsTo(system, emails[2]!).length, 0, 'the second order is told nothing at all');
      assert.equal(
        mailsTo(system, emails[0]!).filter((m) => /^Declined:/.test(m.mail.subject ?? '')).length,
        0,
        'the decliner is not told of their own decline',
      );
      const creatorMail = await noticeMail(acme.tenant.user.email, /^Declined:/, created.id);
      assert.match(creatorMail.mail.text ?? '', /The price is wrong/);
    });

    it('refuses signers without an order when another has one, naming each', async () => {
      const { body } = threeSigners([1, 1, 2]);
      const signers = body.signers.map((s, i) => (i === 1 ? { signer_id: s.signer_id } : s));
      const refused = await acme.api.post<Problem>(`/v1.1/sites/${acme.site}/requests`, { ...body, signers });
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.code, 'invalid_body');
      assert.deepEqual(
        refused.body.errors?.map((e) => e.path),
        ['signers[1].order'],
      );
    });
  });
  describe('signer authentication', () => {
    /** Posts a code on the code-entry page `page` was; answers the status, page and redirect. */
    const postCode = async (url: URL, page: string, code: string) => {
      const token = /name="form_token" value="([^"]+)"/.exec(page)?.[1];
      assert.ok(token !== undefined, page.slice(0, 800));
      return postSignerForm(url, '/sign/verify', { form_token: token.replace(/&amp;/g, '&'), code });
    };

    const oneSigner = (email: string, authentication: Schemas['SignerAuthentication']) =>
      create({
        contracts: [template],
        signers: [{ signer_id: email, send_to: { email: true }, authentication }],
        fields: ['full_name', 'signature', 'witness_signature'].map((name) => ({ name, assigned_to: email })),
        render_data: { client_name: 'Jane Q. Client', start_date: '2030-01-01' },
      });

    it('an access-code signer: the code page instead of the contract, wrong codes refused, locked after 5, signs once the lock ran out', async () => {
      const email = `code-${unique()}@example.com`;
      const created = await oneSigner(email, { method: 'access_code', access_code: 'blue-harbour-42' });
      assert.deepEqual(created.signers[0]!.authentication, { method: 'access_code' });
      assert.ok(!JSON.stringify(created).includes('blue-harbour-42'), 'the access code is never answered');
      await send(created.id);
      const url = new URL(executionUrlIn((await waitForMail(system, email)).mail.text ?? ''));
      const opened = await conformingFetch(url);
      const page = await opened.text();
      assert.equal(opened.status, 200);
      assert.match(page, /Enter your code/);
      assert.ok(!page.includes('Jane Q. Client'), 'the contract is not shown before the code');
      let last = { status: 0, page: '', location: null as string | null };
      for (let i = 1; i <= 5; i++) {
        last = await postCode(url, page, `wrong-${i}`);
        if (i < 5) {
          assert.equal(last.status, 422, last.page.slice(0, 500));
          assert.match(last.page, new RegExp(`${5 - i} tr(y|ies) left`));
        }
      }
      assert.equal(last.status, 429, 'the fifth wrong code locks the link');
      assert.match(last.page, /locked until/);
      const right = await postCode(url, page, 'blue-harbour-42');
      assert.equal(right.status, 429, 'even the right code is refused while locked');
      assert.ok(!right.page.includes('Jane Q. Client'));
      assert.equal((await get(created.id)).signers[0]!.state, 'pending');

      // 15 minutes later (the requests service's clock moved; nothing else did), the right code opens it.
      clock.shift(15 * 60 + 30);
      try {
        const again = await conformingFetch(url);
        const fresh = await again.text();
        assert.equal(again.status, 200, fresh.slice(0, 500));
        assert.match(fresh, /Enter your code/);
        const passed = await postCode(url, fresh, 'blue-harbour-42');
        assert.equal(passed.status, 303, passed.page.slice(0, 500));
        const signs = await signAt(new URL(passed.location!, url.origin).toString(), 'Ada Access');
        assert.equal(signs.pageStatus, 200, signs.page.slice(0, 500));
        assert.match(signs.page, /Jane Q\. Client/);
        assert.equal(signs.status, 303);
      } finally {
        // Back to real time: the gateway's principals (60 s) must verify at requests again.
        clock.shift(0);
      }
      assert.equal((await get(created.id)).state, 'completed');
    });

    it('an e-mail one-time-code signer signs with the code from the captured e-mail', async () => {
      const email = `otp-${unique()}@example.com`;
      const created = await oneSigner(email, { method: 'email_otp' });
      await send(created.id);
      const url = new URL(executionUrlIn((await waitForMail(system, email)).mail.text ?? ''));
      const opened = await conformingFetch(url);
      const page = await opened.text();
      assert.match(page, /We e-mailed a 6-digit code to o•••@example\.com/);
      const codeMail = await eventually(
        () => Promise.resolve(mailsTo(system, email).find((m) => /Your code/.test(m.mail.subject ?? ''))),
        15_000,
      );
      // The code as the e-mail states it: the site's name may hold six digits of its own.
      const code = /sent you: (\d{6})\b/.exec(codeMail.mail.text ?? '')?.[1];
      assert.ok(code !== undefined, codeMail.mail.text);
      const passed = await postCode(url, page, code);
      assert.equal(passed.status, 303, passed.page.slice(0, 500));
      const signingUrl = new URL(passed.location!, url.origin);
      assert.ok(signingUrl.searchParams.get('auth'), 'the pass travels with the page');
      const signs = await signAt(signingUrl.toString(), 'Otto Otp');
      assert.equal(signs.pageStatus, 200);
      assert.match(signs.page, /Jane Q\. Client/);
      assert.equal(signs.status, 303);
      const done = await get(created.id);
      assert.equal(done.state, 'completed');
      assert.equal((await postCode(url, page, code)).status, 303, 'a used link goes back to its page');
    });
  });
});
