import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { hmacFormTokens } from '../../src/adapters/crypto/hmac-form-tokens.js';
import { clientIp, drawingOf } from '../../src/adapters/http/signing/routes.js';
import { parseFrameAncestors } from '../../src/config.js';
import { canonicalDocument, mergeHtml, typedFields } from '../../src/domain/document.js';
import {
  checkDeclineReason,
  checkSignature,
  executedValue,
  type SignerAct,
} from '../../src/domain/signing.js';
import type { AppContext } from '@esign/platform';
import { signingUseCases } from '../../src/application/use-cases.js';
import { htmlSpec, NOW, sent } from '../support/builders.js';
import { fakeDeps } from '../support/fakes.js';
import { signingFixture } from '../support/signing-fixture.js';

const sentRequest = () =>
  sent({
    fields: [
      { name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' },
      { name: 'agree', defaultValue: true, assignedTo: 'alice@example.com' },
      { name: 'plan', defaultValue: 'pro', assignedTo: 'alice@example.com' },
      { name: 'signature', defaultValue: null, assignedTo: 'alice@example.com' },
      { name: 'witness', defaultValue: null, assignedTo: 'bob' },
    ],
  });

describe('signing: the rules of a signer’s submission and of the document shown', () => {
  describe('mergeHtml', () => {
    it('replaces each token by its value as text, so render_data can never add markup', () => {
      const merged = mergeHtml('<p>Dear {{ name }}, from {{start}}{{missing}}.</p>', {
        name: '<img src=x onerror=alert(1)> & "Co"',
        start: "O'Neil",
      });
      assert.equal(
        merged,
        '<p>Dear &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;, from O&#39;Neil.</p>',
      );
    });

    it('leaves text without placeholders alone', () => {
      assert.equal(mergeHtml('<b>a { b } }}</b>', {}), '<b>a { b } }}</b>');
    });
  });

  describe('the document shown', () => {
    it('is canonical JSON whose SHA-256 anyone can recompute from the Request and its templates', () => {
      const request = sentRequest();
      const fields = typedFields(request, [htmlSpec()]);
      const canonical = canonicalDocument(
        request,
        [{ id: 11, name: 'NDA', kind: 'html', sha256: 'ab'.repeat(32) }],
        fields,
      );
      assert.equal(
        canonical,
        `{"contracts":[{"id":11,"kind":"html","name":"NDA","sha256":"${'ab'.repeat(32)}"}],"fields":[` +
          '{"assigned_to":"alice@example.com","name":"full_name","type":"text","value":null},' +
          '{"assigned_to":"alice@example.com","name":"agree","type":"checkbox","value":true},' +
          '{"assigned_to":"alice@example.com","name":"plan","type":"choice","value":"pro"},' +
          '{"assigned_to":"alice@example.com","name":"signature","type":"signature","value":null},' +
          `{"assigned_to":"bob","name":"witness","type":"text","value":null}],"format":"esign-document/1","request_id":"${request.id}"}`,
      );
      // A change to any input is a different document.
      const other = canonicalDocument({ ...request, id: 'x' }, [], fields);
      assert.notEqual(
        createHash('sha256').update(other).digest('hex'),
        createHash('sha256').update(canonical).digest('hex'),
      );
    });
  });

  describe('checkSignature', () => {
    const request = sentRequest();
    const fields = typedFields(request, [htmlSpec()]);
    const alices = fields.filter((f) => f.assignedTo === 'alice@example.com' && f.name !== 'signature');
    const form = (
      values: Record<number, string>,
      extra: Partial<{ typedName: string; consent: boolean }> = {},
    ) => ({
      values: new Map(Object.entries(values).map(([k, v]) => [Number(k), v])),
      typedName: 'Alice Example',
      consent: true,
      ...extra,
    });

    it('takes a complete form: text trimmed, an absent checkbox false, a choice among its options', () => {
      const result = checkSignature(
        alices,
        form({ 0: '  Alice  ', 2: 'basic' }, { typedName: ' Alice   Example ' }),
      );
      assert.deepEqual(
        result,
        E.right({ values: { full_name: 'Alice', agree: false, plan: 'basic' }, typedName: 'Alice Example' }),
      );
    });

    it('names every problem at once', () => {
      const result = checkSignature(
        alices,
        form({ 0: 'x'.repeat(51), 1: 'maybe', 2: 'gold' }, { typedName: ' ', consent: false }),
      );
      assert.ok(E.isLeft(result));
      assert.deepEqual(
        result.left.map((p) => [p.target, p.message]),
        [
          [{ _tag: 'Field', index: 0 }, 'must be at most 50 characters'],
          [{ _tag: 'Field', index: 1 }, 'must be ticked or left empty'],
          [{ _tag: 'Field', index: 2 }, 'choose one of the options shown'],
          [{ _tag: 'TypedName' }, 'type your full name to sign'],
          [{ _tag: 'Consent' }, 'tick the box to agree to sign electronically'],
        ],
      );
    });

    it('refuses control characters in a one-line value and an empty required field', () => {
      const result = checkSignature(alices, form({ 0: 'a\u0000b', 2: '' }));
      assert.ok(E.isLeft(result));
      assert.deepEqual(
        result.left.map((p) => p.message),
        ['must be plain text on one line', 'choose one of the options'],
      );
    });

    it('asks a decline for a short plain reason', () => {
      assert.ok(E.isLeft(checkDeclineReason('  ')));
      assert.ok(E.isLeft(checkDeclineReason('x'.repeat(1001))));
      assert.deepEqual(checkDeclineReason(' Wrong\r\nname '), E.right('Wrong\nname'));
    });

    it('executes a field with what its signer entered, else what was pre-filled', () => {
      const act: SignerAct = {
        signerRef: 'ref0',
        signerId: 'alice@example.com',
        contact: { email: 'alice@example.com', mobileNumber: null },
        kind: 'signed',
        at: NOW,
        ip: '1.2.3.4',
        userAgent: 'UA',
        documentSha256: '0'.repeat(64),
        typedName: 'Alice',
        drawnSignature: null,
        values: { full_name: 'Alice' },
        reason: null,
        authentication: null,
      };
      assert.equal(executedValue(fields[0]!, [act]), 'Alice');
      assert.equal(executedValue(fields[1]!, [act]), true);
      assert.equal(executedValue(fields[4]!, [act]), null);
    });
  });

  describe('form tokens', () => {
    const keys = [
      { id: 'new', secret: 'n'.repeat(32) },
      { id: 'old', secret: 'o'.repeat(32) },
    ];
    const tokens = hmacFormTokens(keys, 3600);
    const later = (s: number) => new Date(Date.parse(NOW) + s * 1000).toISOString();

    it('verify for the binding they were issued for, until they expire', () => {
      const token = tokens.issue('req\nref\nhash', NOW);
      assert.equal(tokens.verify('req\nref\nhash', token, later(3599)), 'valid');
      assert.equal(tokens.verify('req\nref\nhash', token, later(3601)), 'expired');
      assert.equal(tokens.verify('req\nref\nother', token, NOW), 'invalid');
      assert.equal(tokens.verify('req\nref\nhash', `${token.slice(0, -1)}A`, NOW), 'invalid');
      assert.equal(tokens.verify('req\nref\nhash', token, later(-3600)), 'invalid');
      assert.equal(tokens.verify('req\nref\nhash', 'garbage', NOW), 'invalid');
    });

    it('keep verifying under a key that is no longer first', () => {
      const before = hmacFormTokens([keys[1]!], 3600).issue('b', NOW);
      assert.equal(tokens.verify('b', before, NOW), 'valid');
      assert.equal(hmacFormTokens([keys[0]!], 3600).verify('b', before, NOW), 'invalid');
    });
  });

  describe('the HTTP edge', () => {
    it('accepts frame-ancestors of none, self and origins only', () => {
      assert.deepEqual(parseFrameAncestors("'none'"), E.right("'none'"));
      assert.deepEqual(
        parseFrameAncestors("'self'  https://app.example.com https://*.example.org:8443"),
        E.right("'self' https://app.example.com https://*.example.org:8443"),
      );
      for (const bad of [
        "'none' https://a.example",
        '*',
        'https://a.example; script-src *',
        'javascript:x',
        "'unsafe-inline'",
      ])
        assert.ok(E.isLeft(parseFrameAncestors(bad)), bad);
    });

    it('reads a drawn signature only as a PNG of bounded size', () => {
      const png = Buffer.alloc(40);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
      png.write('IHDR', 12, 'latin1');
      png.writeUInt32BE(600, 16);
      png.writeUInt32BE(180, 20);
      const url = `data:image/png;base64,${png.toString('base64')}`;
      assert.ok(E.isRight(drawingOf(url)));
      assert.deepEqual(drawingOf(''), E.right(null));
      assert.ok(E.isLeft(drawingOf('data:image/svg+xml;base64,PHN2Zz4=')));
      png.writeUInt32BE(90_000, 16);
      assert.ok(E.isLeft(drawingOf(`data:image/png;base64,${png.toString('base64')}`)));
    });

    it('takes the signer’s address the configured number of proxies back', () => {
      const ctx = (xff: string) =>
        ({
          req: { socket: { remoteAddress: '::ffff:10.0.0.5' } },
          get: (h: string) => (h === 'x-forwarded-for' ? xff : ''),
        }) as unknown as AppContext;
      assert.equal(clientIp(ctx(''), 1), '10.0.0.5');
      assert.equal(clientIp(ctx('198.51.100.7'), 1), '198.51.100.7');
      assert.equal(clientIp(ctx('6.6.6.6, 198.51.100.7'), 1), '198.51.100.7');
      assert.equal(clientIp(ctx('6.6.6.6, 198.51.100.7, 10.0.0.9'), 2), '198.51.100.7');
      assert.equal(clientIp(ctx('198.51.100.7'), 0), '10.0.0.5');
    });
  });

  describe('use cases (in-memory ports)', () => {
    /** What every act's form carries besides its answers, for the page it was shown with. */
    const formOf = (
      link: { requestId: string; signerRef: string; signature: string },
      page: { formToken: string; documentSha256: string },
    ) => ({
      ...link,
      ip: '192.0.2.1',
      userAgent: 'UA',
      formToken: page.formToken,
      documentSha256: page.documentSha256,
    });

    const setup = (overrides: Partial<ReturnType<typeof sentRequest>> = {}) => {
      const faked = fakeDeps();
      const { memory } = faked;
      const request = { ...sentRequest(), ...overrides };
      const { cases, link } = signingFixture(faked, request);
      const signAs = async (ref: string, values: Record<number, string>) => {
        const opened = await cases.openSigningPage(link(ref))();
        if (E.isLeft(opened) || opened.right._tag !== 'Sign')
          throw new Error(`no page: ${JSON.stringify(opened)}`);
        const page = opened.right.page;
        return cases.submitSignature({
          ...formOf(link(ref), page),
          values: new Map(Object.entries(values).map(([k, v]) => [Number(k), v])),
          typedName: ref,
          consent: true,
          drawnSignature: null,
        })();
      };
      return { memory, request, cases, link, signAs, types: () => memory.state().outbox.map((e) => e.type) };
    };

    const noticeRecipients = (memory: ReturnType<typeof setup>['memory'], type: string) => {
      const notice = memory.state().outbox.find((e) => e.type === type);
      assert.ok(notice !== undefined && 'signers' in notice.data, `no ${type}`);
      return (
        notice.data.signers as ReadonlyArray<{
          signer_ref: string;
          email: string | null;
          request_url: string;
        }>
      ).map((s) => [s.signer_ref, s.email, s.request_url.replace(/\?.*$/, '')]);
    };

    it('signs the document the locked Request shows, not one read before the lock that reads otherwise', async () => {
      const faked = fakeDeps();
      const request = sentRequest();
      const { cases, link } = signingFixture(faked, request);
      // Reads outside the transaction see other render data; the locked read sees the Request as stored.
      const requests = faked.deps.store.requests;
      const stale = signingUseCases({
        ...faked.deps,
        store: {
          ...faked.deps.store,
          requests: {
            ...requests,
            findByVerifiedId: (id) =>
              pipe(
                requests.findByVerifiedId(id),
                TE.map(O.map((r) => ({ ...r, renderData: { client_name: 'Someone else' } }))),
              ),
          },
        },
      });
      const shown = await cases.openSigningPage(link('ref0'))();
      const staleShown = await stale.openSigningPage(link('ref0'))();
      assert.ok(E.isRight(shown) && shown.right._tag === 'Sign');
      assert.ok(E.isRight(staleShown) && staleShown.right._tag === 'Sign');
      assert.notEqual(staleShown.right.page.documentSha256, shown.right.page.documentSha256);
      const signed = await stale.submitSignature({
        ...formOf(link('ref0'), shown.right.page),
        values: new Map([
          [0, 'Alice'],
          [2, 'basic'],
        ]),
        typedName: 'Alice',
        consent: true,
        drawnSignature: null,
      })();
      assert.ok(E.isRight(signed), JSON.stringify(signed));
      assert.equal(
        faked.memory.state().acts.get(request.id)?.[0]?.documentSha256,
        shown.right.page.documentSha256,
      );
    });

    it('ADR 2003: the creator is told of the completion, with the Request’s page in the web application', async () => {
      const creator = { userId: 'user-1', email: 'owner@example.com' };
      const { memory, request, signAs } = setup({ creator });
      assert.ok(E.isRight(await signAs('ref0', { 0: 'Alice', 2: 'basic' })));
      assert.ok(E.isRight(await signAs('ref1', { 4: 'Bob' })));
      assert.deepEqual(noticeRecipients(memory, 'notice.completed'), [
        ['ref0', 'alice@example.com', 'https://esign.example/sign/copy'],
        ['@sender', 'owner@example.com', `https://esign.example/app/requests/${request.id}`],
      ]);
    });

    it('ADR 3230: each carbon copy gets a copy link on completion, under its own reference, once', async () => {
      const { memory, signAs } = setup({ cc: ['legal@example.com', 'alice@example.com', 'ops@example.com'] });
      assert.ok(E.isRight(await signAs('ref0', { 0: 'Alice', 2: 'basic' })));
      assert.ok(E.isRight(await signAs('ref1', { 4: 'Bob' })));
      assert.deepEqual(noticeRecipients(memory, 'notice.completed'), [
        ['ref0', 'alice@example.com', 'https://esign.example/sign/copy'],
        ['cc.1', 'legal@example.com', 'https://esign.example/sign/copy'],
        ['cc.3', 'ops@example.com', 'https://esign.example/sign/copy'],
      ]);
    });

    it('ADR 2003: the creator is told of a decline even when no other signer had been told', async () => {
      const { memory, request, cases, link } = setup({
        creator: { userId: 'user-1', email: 'owner@example.com' },
      });
      const opened = await cases.openSigningPage(link('ref0'))();
      assert.ok(E.isRight(opened) && opened.right._tag === 'Sign');
      const declined = await cases.declineSigning({
        ...formOf(link('ref0'), opened.right.page),
        reason: 'Wrong price',
      })();
      assert.ok(E.isRight(declined), JSON.stringify(declined));
      const recipients = noticeRecipients(memory, 'notice.declined');
      assert.deepEqual(recipients.at(-1), [
        '@sender',
        'owner@example.com',
        `https://esign.example/app/requests/${request.id}`,
      ]);
      assert.ok(!recipients.some(([ref]) => ref === 'ref0'), 'the decliner is not told');
    });

    it('ADR 2003: a Request without a recorded creator address tells the signers only', async () => {
      const { memory, signAs } = setup({ creator: { userId: 'user-1', email: null } });
      assert.ok(E.isRight(await signAs('ref0', { 0: 'Alice', 2: 'basic' })));
      assert.ok(E.isRight(await signAs('ref1', { 4: 'Bob' })));
      assert.deepEqual(
        noticeRecipients(memory, 'notice.completed').map(([ref]) => ref),
        ['ref0'],
      );
    });

    it('signs once: a repeat is answered alike and records nothing; the last signature completes', async () => {
      const { memory, request, signAs, cases, link, types } = setup();
      const first = await signAs('ref0', { 0: 'Alice', 2: 'basic' });
      assert.ok(E.isRight(first) && !first.right.repeated);
      assert.deepEqual(types(), ['request.signed']);
      const page = await cases.openSigningPage(link('ref0'))();
      assert.ok(E.isRight(page) && page.right._tag === 'AlreadySigned');
      const again = await cases.submitSignature({
        ...link('ref0'),
        ip: 'x',
        userAgent: 'x',
        formToken: '',
        documentSha256: '',
        values: new Map(),
        typedName: 'x',
        consent: false,
        drawnSignature: null,
      })();
      assert.ok(E.isRight(again) && again.right.repeated);
      assert.deepEqual(types(), ['request.signed']);
      assert.ok(E.isRight(await signAs('ref1', { 4: 'Bob' })));
      assert.deepEqual(types(), [
        'request.signed',
        'request.signed',
        'request.completed',
        'notice.completed',
      ]);
      assert.equal(memory.state().requests.get(request.id)!.state, 'completed');
      assert.deepEqual(
        memory
          .state()
          .acts.get(request.id)!
          .map((a) => [a.signerId, a.values]),
        [
          ['alice@example.com', { full_name: 'Alice', agree: false, plan: 'basic' }],
          ['bob', { witness: 'Bob' }],
        ],
      );
    });

    it('refuses a tampered link before reading anything, and a closed one with its state', async () => {
      const { cases, link, memory, request } = setup();
      const tampered = await cases.openSigningPage({ ...link('ref0'), signerRef: 'ref1' })();
      assert.deepEqual(tampered, E.left({ _tag: 'InvalidSignature' }));
      memory.state().requests.set(request.id, { ...request, state: 'cancelled', cancelledAt: NOW });
      const closed = await cases.openSigningPage(link('ref0'))();
      assert.ok(E.isLeft(closed) && closed.left._tag === 'Closed' && closed.left.state === 'cancelled');
    });
  });
});
