import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { CreateRequestBody, decode } from '@esign/contracts';
import { createSignatureRequest } from '../../src/domain/request-creation.js';
import {
  body,
  creationInput,
  htmlSpec,
  later,
  left,
  NOW,
  pdfSpec,
  right,
  SITE,
} from '../support/builders.js';

const create = (
  input: unknown,
  overrides: Parameters<typeof creationInput>[0] extends infer T ? Partial<T> : never = {},
) => createSignatureRequest(creationInput({ ...overrides, body: body(input) }));

const errorsOf = (input: unknown, overrides = {}) => left(create(input, overrides)).errors;

describe('requests domain: creating a Request', () => {
  it('makes a draft from the minimum: one contract and one signer_id', () => {
    const { request, siteSigners, events } = right(
      create({ contracts: [11], signers: [{ signer_id: 'x-1' }] }),
    );
    assert.equal(request.state, 'draft');
    assert.equal(request.siteName, SITE.name);
    assert.deepEqual(request.contracts, [{ id: 11, name: 'NDA' }]);
    assert.deepEqual(
      request.signers.map((s) => [s.signerId, s.signerRef, s.state]),
      [['x-1', 'ref0', 'pending']],
    );
    assert.deepEqual(request.signers[0]!.sendTo, { email: false, sms: false });
    assert.deepEqual(siteSigners, [{ siteId: SITE.id, signerId: 'x-1', email: null, mobileNumber: null }]);
    assert.deepEqual(events, [{ type: 'request.created' }]);
  });

  it('holds every field of its contracts, unassigned unless the body says otherwise', () => {
    const { request } = right(create({ contracts: [11], signers: [{ signer_id: 'x' }] }));
    assert.deepEqual(
      request.fields.map((f) => [f.name, f.defaultValue, f.assignedTo]),
      [
        ['full_name', null, null],
        ['agree', null, null],
        ['plan', null, null],
        ['signature', null, null],
      ],
    );
  });

  it('merges a field name shared by two contracts into one field', () => {
    const other = htmlSpec({
      id: 13,
      name: 'Annex',
      fields: [
        { name: 'signature', type: 'signature' },
        { name: 'initials', type: 'text', maxLength: 3 },
      ],
    });
    const { request } = right(
      create({ contracts: [11, 13], signers: [{ signer_id: 'x' }] }, { templates: [htmlSpec(), other] }),
    );
    assert.deepEqual(
      request.fields.map((f) => f.name),
      ['full_name', 'agree', 'plan', 'signature', 'initials'],
    );
  });

  describe('signers', () => {
    it('detects an e-mail address in signer_id and attaches it, lower-cased', () => {
      const { request } = right(create({ contracts: [11], signers: [{ signer_id: 'Alice@Example.COM' }] }));
      assert.deepEqual(request.signers[0]!.contact, { email: 'alice@example.com', mobileNumber: null });
      assert.equal(request.signers[0]!.signerId, 'Alice@Example.COM');
    });

    it('detects a 10-digit mobile number and keeps it as 1 + 10 digits', () => {
      const { request } = right(create({ contracts: [11], signers: [{ signer_id: '5552345678' }] }));
      assert.deepEqual(request.signers[0]!.contact, { email: null, mobileNumber: '15552345678' });
    });

    it('leaves a GUID, an 11-digit id or a formatted number as an opaque id', () => {
      for (const id of ['3f2504e0-4f89-11d3-9a0c-0305e82c3301', '15552345678', '555-234-5678', '555123456']) {
        const { request } = right(create({ contracts: [11], signers: [{ signer_id: id }] }));
        assert.deepEqual(request.signers[0]!.contact, { email: null, mobileNumber: null }, id);
      }
    });

    it('MEDIUM 6: refuses a 10-digit signer_id that is a Canadian, Caribbean or invalid NANP number, naming the field', () => {
      for (const [id, says] of [
        ['4165550123', 'Canada'],
        ['8765550123', 'Jamaica'],
        ['8095550123', 'Dominican Republic'],
        ['0125550123', 'cannot start with 0 or 1'],
        ['2021550123', 'exchange 155 cannot start with 0 or 1'],
        ['4115550123', 'service code'],
      ] as const) {
        const errors = errorsOf({
          contracts: [11],
          signers: [{ signer_id: 'ok@example.com' }, { signer_id: id }],
        });
        assert.equal(errors.length, 1, id);
        assert.equal(errors[0]!.path, 'signers[1].signer_id', id);
        assert.match(errors[0]!.message, new RegExp(says), id);
      }
      const decoded = decode(CreateRequestBody)({
        contracts: [11],
        signers: [{ signer_id: 'guid-1', signer: { mobile_number: '+1 604 555 0123' } }],
      });
      assert.ok(E.isLeft(decoded));
      assert.deepEqual(
        decoded.left.map((e) => e.path),
        ['signers[0].signer.mobile_number'],
      );
      assert.match(decoded.left[0]!.message, /Canada/);
      // US numbers, territories included, are still mobiles.
      for (const id of ['2025550123', '7875550123', '5552345678']) {
        const { request } = right(create({ contracts: [11], signers: [{ signer_id: id }] }));
        assert.equal(request.signers[0]!.contact.mobileNumber, `1${id}`, id);
      }
    });

    it('lets details given in signer win over detection', () => {
      const { request } = right(
        create({
          contracts: [11],
          signers: [
            {
              signer_id: 'alice@example.com',
              signer: { email: 'work@example.com', mobile_number: '+1 (555) 200-1111' },
            },
          ],
        }),
      );
      assert.deepEqual(request.signers[0]!.contact, {
        email: 'work@example.com',
        mobileNumber: '15552001111',
      });
    });

    it('upserts: keeps what the site knew when the call does not say, updates what it does say', () => {
      const storedContacts = new Map([['guid-1', { email: 'old@example.com', mobileNumber: '15552000000' }]]);
      const kept = right(create({ contracts: [11], signers: [{ signer_id: 'guid-1' }] }, { storedContacts }));
      assert.deepEqual(kept.siteSigners[0], {
        siteId: SITE.id,
        signerId: 'guid-1',
        email: 'old@example.com',
        mobileNumber: '15552000000',
      });
      const updated = right(
        create(
          { contracts: [11], signers: [{ signer_id: 'guid-1', signer: { email: 'new@example.com' } }] },
          { storedContacts },
        ),
      );
      assert.deepEqual(updated.request.signers[0]!.contact, {
        email: 'new@example.com',
        mobileNumber: '15552000000',
      });
    });

    it('records the chosen channels', () => {
      const { request } = right(
        create({
          contracts: [11],
          signers: [
            { signer_id: 'a@b.co', send_to: { email: true } },
            { signer_id: 'b', send_to: { mobile_number: true } },
          ],
        }),
      );
      assert.deepEqual(
        request.signers.map((s) => s.sendTo),
        [
          { email: true, sms: false },
          { email: false, sms: true },
        ],
      );
    });

    it('refuses a duplicate signer_id at its path', () => {
      assert.deepEqual(
        errorsOf({ contracts: [11], signers: [{ signer_id: 'a' }, { signer_id: 'b' }, { signer_id: 'a' }] }),
        [{ path: 'signers[2].signer_id', message: 'duplicates signers[0].signer_id "a"' }],
      );
    });
  });

  describe('contracts', () => {
    it("refuses a duplicate, a missing, another site's, an unpublished, an archived and a deleted template, each at its index", () => {
      const templates = [
        htmlSpec(),
        pdfSpec({ id: 14, siteId: 99 }),
        htmlSpec({ id: 15, state: 'draft' }),
        pdfSpec({ id: 16, archivedAt: NOW }),
        htmlSpec({ id: 17, deletedAt: NOW }),
      ];
      assert.deepEqual(
        errorsOf({ contracts: [11, 11, 404, 14, 15, 16, 17], signers: [{ signer_id: 'a' }] }, { templates }),
        [
          { path: 'contracts[1]', message: 'duplicates contracts[0]: contract 11 is named twice' },
          { path: 'contracts[2]', message: 'no contract template 404 on this site' },
          { path: 'contracts[3]', message: 'no contract template 14 on this site' },
          { path: 'contracts[4]', message: 'contract template 15 is not published: publish it first' },
          { path: 'contracts[5]', message: 'contract template 16 is archived: unarchive it, or use another' },
          { path: 'contracts[6]', message: 'contract template 17 was deleted: use another' },
        ],
      );
    });
  });

  describe('fields', () => {
    const signers = [
      { signer_id: 'alice', signer: { email: 'alice@example.com' } },
      { signer_id: 'bob', signer: { email: 'bob@example.com' } },
    ];

    it('assigns by signer_id and pre-fills values that fit the field', () => {
      const { request } = right(
        create({
          contracts: [11],
          signers,
          fields: [
            { name: 'full_name', default_value: 'Alice A.', assigned_to: 'alice' },
            { name: 'agree', default_value: true, assigned_to: 'bob' },
            { name: 'plan', default_value: 'pro' },
          ],
        }),
      );
      assert.deepEqual(
        request.fields.map((f) => [f.name, f.defaultValue, f.assignedTo]),
        [
          ['full_name', 'Alice A.', 'alice'],
          ['agree', true, 'bob'],
          ['plan', 'pro', null],
          ['signature', null, null],
        ],
      );
    });

    it('gives a signer named by e-mail that field and every field left without an explicit assignment', () => {
      const { request } = right(
        create({
          contracts: [11],
          signers,
          fields: [
            { name: 'agree', assigned_to: 'bob' },
            { name: 'plan', assigned_to: 'ALICE@example.com' },
          ],
        }),
      );
      assert.deepEqual(
        request.fields.map((f) => [f.name, f.assignedTo]),
        [
          ['full_name', 'alice'],
          ['agree', 'bob'],
          ['plan', 'alice'],
          ['signature', 'alice'],
        ],
      );
    });

    it('does not depend on the order of the entries', () => {
      const a = right(
        create({
          contracts: [11],
          signers,
          fields: [
            { name: 'plan', assigned_to: 'alice@example.com' },
            { name: 'agree', assigned_to: 'bob' },
          ],
        }),
      );
      const b = right(
        create({
          contracts: [11],
          signers,
          fields: [
            { name: 'agree', assigned_to: 'bob' },
            { name: 'plan', assigned_to: 'alice@example.com' },
          ],
        }),
      );
      assert.deepEqual(a.request.fields, b.request.fields);
    });

    it('treats an e-mail that is itself a signer_id as a plain assignment of that one field', () => {
      const { request } = right(
        create({
          contracts: [11],
          signers: [{ signer_id: 'alice@example.com' }],
          fields: [{ name: 'agree', assigned_to: 'alice@example.com' }],
        }),
      );
      assert.deepEqual(
        request.fields.map((f) => f.assignedTo),
        [null, 'alice@example.com', null, null],
      );
    });

    it('refuses an e-mail shared by two signers, and two signers each taking the rest', () => {
      const twins = [
        { signer_id: 'a1', signer: { email: 'same@example.com' } },
        { signer_id: 'a2', signer: { email: 'same@example.com' } },
      ];
      assert.deepEqual(
        errorsOf({
          contracts: [11],
          signers: twins,
          fields: [{ name: 'agree', assigned_to: 'same@example.com' }],
        }),
        [
          {
            path: 'fields[0].assigned_to',
            message: 'e-mail "same@example.com" belongs to several signers ("a1", "a2"): assign by signer_id',
          },
        ],
      );
      assert.deepEqual(
        errorsOf({
          contracts: [11],
          signers,
          fields: [
            { name: 'agree', assigned_to: 'alice@example.com' },
            { name: 'plan', assigned_to: 'alice@example.com' },
            { name: 'full_name', assigned_to: 'bob@example.com' },
          ],
        }),
        [
          {
            path: 'fields[2].assigned_to',
            message:
              'only one signer can take the remaining fields by e-mail, and fields[0].assigned_to already gives them to "alice": assign by signer_id',
          },
        ],
      );
    });

    it('refuses unknown names, duplicates, unknown assignees and values that do not fit, each at its path', () => {
      assert.deepEqual(
        errorsOf({
          contracts: [11],
          signers,
          fields: [
            { name: 'nope' },
            { name: 'agree', default_value: 'yes' },
            { name: 'agree' },
            { name: 'full_name', default_value: true, assigned_to: 'carol' },
            { name: 'plan', default_value: 'gold', assigned_to: 'carol@example.com' },
            { name: 'signature', default_value: 'Alice' },
          ],
        }),
        [
          { path: 'fields[0].name', message: 'no field "nope" on the contracts of this Request' },
          { path: 'fields[1].default_value', message: 'must be true or false: "agree" is a checkbox' },
          { path: 'fields[2].name', message: 'duplicates fields[1].name "agree"' },
          { path: 'fields[3].default_value', message: 'must be a string: "full_name" is a text field' },
          { path: 'fields[3].assigned_to', message: 'no signer of this Request has signer_id "carol"' },
          {
            path: 'fields[4].default_value',
            message: 'must be one of "basic", "pro": the options of "plan"',
          },
          {
            path: 'fields[4].assigned_to',
            message: 'no signer of this Request has signer_id or e-mail "carol@example.com"',
          },
          {
            path: 'fields[5].default_value',
            message: 'is not allowed: signature field "signature" is signed by its signer, not pre-filled',
          },
        ],
      );
    });

    it("refuses a text longer than the field's limit", () => {
      assert.deepEqual(
        errorsOf({
          contracts: [11],
          signers,
          fields: [{ name: 'full_name', default_value: 'x'.repeat(51) }],
        }),
        [
          {
            path: 'fields[0].default_value',
            message: 'must be at most 50 characters: the limit of text field "full_name"',
          },
        ],
      );
    });
  });

  describe('render_data', () => {
    it('accepts tokens of HTML contracts', () => {
      const { request } = right(
        create({ contracts: [11], signers: [{ signer_id: 'a' }], render_data: { client_name: 'Acme' } }),
      );
      assert.deepEqual(request.renderData, { client_name: 'Acme' });
    });

    it('refuses keys that are not tokens, at their path', () => {
      assert.deepEqual(
        errorsOf({
          contracts: [11],
          signers: [{ signer_id: 'a' }],
          render_data: { client_name: 'x', nope: 'y', 'two words': 'z' },
        }),
        [
          { path: 'render_data.nope', message: '"nope" is not a token of the contracts of this Request' },
          {
            path: 'render_data["two words"]',
            message: '"two words" is not a token of the contracts of this Request',
          },
        ],
      );
    });

    it('refuses render_data for a PDF contract and says to use fields', () => {
      assert.deepEqual(
        errorsOf({ contracts: [11, 12], signers: [{ signer_id: 'a' }], render_data: { client_name: 'x' } }),
        [
          {
            path: 'render_data',
            message:
              'applies to HTML contracts only, and contract 12 is a PDF: pre-fill a PDF with fields[].default_value instead',
          },
        ],
      );
    });
  });

  describe('expires_at', () => {
    it('must lie in the future, at most a year ahead', () => {
      assert.deepEqual(errorsOf({ contracts: [11], signers: [{ signer_id: 'a' }], expires_at: NOW }), [
        { path: 'expires_at', message: 'must be in the future' },
      ]);
      assert.deepEqual(
        errorsOf({ contracts: [11], signers: [{ signer_id: 'a' }], expires_at: later(NOW, 366 * 86400) }),
        [{ path: 'expires_at', message: 'must be at most 365 days ahead' }],
      );
      const { request } = right(
        create({ contracts: [11], signers: [{ signer_id: 'a' }], expires_at: '2030-01-02T12:00:00+02:00' }),
      );
      assert.equal(request.expiresAt, '2030-01-02T10:00:00.000Z');
    });
  });

  describe('cc (ADR 3230)', () => {
    it('keeps each address lower-cased, in order; one given twice is refused at its place', () => {
      const { request } = right(
        create({
          contracts: [11],
          signers: [{ signer_id: 'a' }],
          cc: ['Legal@Example.com', 'ops@example.com'],
        }),
      );
      assert.deepEqual(request.cc, ['legal@example.com', 'ops@example.com']);
      assert.deepEqual(right(create({ contracts: [11], signers: [{ signer_id: 'a' }] })).request.cc, []);
      assert.deepEqual(
        errorsOf({
          contracts: [11],
          signers: [{ signer_id: 'a' }],
          cc: ['a@example.com', 'b@x.com', 'A@example.com '],
        }),
        [{ path: 'cc[2]', message: 'repeats cc[0]' }],
      );
    });
  });

  it('reports every violation at once', () => {
    const errors = errorsOf({
      contracts: [11],
      signers: [{ signer_id: 'a' }, { signer_id: 'a' }],
      fields: [{ name: 'nope' }],
      render_data: { nope: 'x' },
      expires_at: '2000-01-01T00:00:00Z',
    });
    assert.deepEqual(
      errors.map((e) => e.path),
      ['signers[1].signer_id', 'fields[0].name', 'render_data.nope', 'expires_at'],
    );
  });
});
