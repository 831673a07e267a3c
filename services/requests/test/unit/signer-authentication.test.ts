import { isoNow } from '@esign/contracts';
import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { newChallenge, type AuthMethod } from '../../src/domain/signer-authentication.js';
import { createSignatureRequest } from '../../src/domain/request-creation.js';
import { body, creationInput, later, left, NOW, sent, signer } from '../support/builders.js';
import { fakeDeps } from '../support/fakes.js';
import { signingFixture } from '../support/signing-fixture.js';

/** A sent Request of one signer (alice) with `method`, its challenge stored as create leaves it. */
const setup = async (method: AuthMethod, accessCode = 'blue-harbour-42') => {
  const faked = fakeDeps();
  const { deps, memory } = faked;
  const request = sent({
    signers: [
      signer({
        authentication: method,
        contact: { email: 'alice@example.com', mobileNumber: '15551234567' },
      }),
    ],
    fields: [{ name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' }],
  });
  const hash = method === 'access_code' ? E.toUnion(await deps.codeHasher.hash(accessCode)()) : null;
  memory.state().challenges.set(`${request.id}/ref0`, newChallenge(method, hash));
  const { cases, link: linkOf } = signingFixture(faked, request);
  const link = linkOf('ref0');
  const gate = async (authToken?: string) => {
    const result = await cases.signerGate({ ...link, authToken })();
    assert.ok(E.isRight(result));
    return result.right;
  };
  // The code form's token as the page issues it, without opening the page (which may send a code).
  const formToken = () => deps.formTokens.issue(`${request.id}\nref0\ncode`, isoNow(deps.clock));
  const verify = async (code: string) => {
    const result = await cases.verifySignerCode({ ...link, code, formToken: formToken() })();
    assert.ok(E.isRight(result));
    return result.right;
  };
  const codeEvents = () => memory.state().outbox.filter((e) => e.type === 'signer.code_requested');
  return { ...faked, request, cases, link, gate, verify, formToken, codeEvents };
};

describe('signer authentication (in-memory ports, an injected clock)', () => {
  it('shows the code page, not the contract, until the access code is right; then the pass opens the page', async () => {
    const { gate, verify, cases, link } = await setup('access_code');
    assert.equal((await gate())._tag, 'CodeRequired');
    const wrong = await verify('not-it');
    assert.equal(wrong._tag, 'WrongCode');
    assert.equal(wrong._tag === 'WrongCode' && wrong.attemptsLeft, 4);
    const right = await verify('blue-harbour-42');
    assert.equal(right._tag, 'Passed');
    const token = right._tag === 'Passed' ? right.authToken : '';
    const open = await gate(token);
    assert.deepEqual(open, { _tag: 'Open', authToken: token });
    // Signing without the pass is refused in the use case, not only on the page.
    const opened = await cases.openSigningPage(link)();
    assert.ok(E.isRight(opened) && opened.right._tag === 'Sign');
    const page = opened.right.page;
    const submit = (authToken?: string) =>
      cases.submitSignature({
        ...link,
        ip: '192.0.2.1',
        userAgent: 'UA',
        authToken,
        formToken: page.formToken,
        documentSha256: page.documentSha256,
        values: new Map([[0, 'Alice']]),
        typedName: 'Alice',
        consent: true,
        drawnSignature: null,
      })();
    assert.deepEqual(left(await submit()), { _tag: 'AuthenticationRequired' });
    assert.deepEqual(left(await submit(`${Date.parse(NOW)}.forged`)), { _tag: 'AuthenticationRequired' });
    const signed = await submit(token);
    assert.ok(E.isRight(signed), JSON.stringify(signed));
  });

  it('locks the link after 5 wrong codes for 15 minutes, even for the right code; then the right code passes', async () => {
    const { verify, setNow } = await setup('access_code');
    for (let i = 0; i < 4; i++) assert.equal((await verify(`wrong-${i}`))._tag, 'WrongCode');
    const fifth = await verify('wrong-4');
    assert.equal(fifth._tag, 'Locked');
    assert.equal(fifth._tag === 'Locked' && fifth.page.lockedUntil, later(NOW, 15 * 60));
    setNow(later(NOW, 15 * 60 - 1));
    assert.equal((await verify('blue-harbour-42'))._tag, 'Locked', 'the right code is refused while locked');
    setNow(later(NOW, 15 * 60));
    assert.equal((await verify('blue-harbour-42'))._tag, 'Passed', 'the lock has run out');
  });

  it('e-mails a one-time code through the outbox once per live code; it works once and expires after 10 minutes', async () => {
    const { gate, verify, codes, codeEvents, setNow } = await setup('email_otp');
    codes.push('111111', '222222', '333333');
    await gate();
    await gate();
    assert.equal(codeEvents().length, 1, 'opening the page again sends no second code while one is live');
    const event = codeEvents()[0]!;
    assert.equal(event.type === 'signer.code_requested' && event.data.code, '111111');
    assert.deepEqual(event.type === 'signer.code_requested' && event.data.signers.map((s) => s.send_to), [
      { email: true, mobile_number: false },
    ]);
    assert.equal((await verify('111111'))._tag, 'Passed');
    assert.equal((await verify('111111'))._tag, 'CodeExpired', 'single use');
    // The next opening sends a new code, which expires after 10 minutes.
    await gate();
    assert.equal(codeEvents().length, 2);
    setNow(later(NOW, 10 * 60));
    assert.equal((await verify('222222'))._tag, 'CodeExpired');
  });

  it('caps texted codes per signer per hour', async () => {
    const { cases, link, formToken, codeEvents, setNow } = await setup('sms_otp');
    const resend = async () => {
      const result = await cases.resendSignerCode({ ...link, formToken: formToken() })();
      assert.ok(E.isRight(result) && result.right._tag === 'CodeRequired');
      return result.right.page;
    };
    await resend();
    await resend();
    const third = await resend();
    assert.equal(codeEvents().length, 3);
    assert.equal(third.smsLimitUntil, null);
    const fourth = await resend();
    assert.equal(codeEvents().length, 3, 'a fourth text within the hour is not sent');
    assert.equal(fourth.smsLimitUntil, later(NOW, 3600));
    setNow(later(NOW, 3600));
    await resend();
    assert.equal(codeEvents().length, 4);
  });

  it('refuses at create a method without the contact it sends to, and an access code on another method', () => {
    const refused = left(
      createSignatureRequest(
        creationInput({
          body: body({
            contracts: [11],
            signers: [
              { signer_id: 'guid-1', authentication: { method: 'email_otp' } },
              { signer_id: 'guid-2', authentication: { method: 'sms_otp' } },
              { signer_id: 'guid-3', authentication: { method: 'access_code' } },
              { signer_id: 'a@example.com', authentication: { method: 'email_otp', access_code: '1234' } },
            ],
          }),
        }),
      ),
    );
    assert.deepEqual(
      refused.errors.map((e) => e.path),
      [
        'signers[0].signer.email',
        'signers[1].signer.mobile_number',
        'signers[2].authentication.access_code',
        'signers[3].authentication.access_code',
      ],
    );
  });
});
