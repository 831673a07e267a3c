import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { isKnownProblem, problemText } from '../../src/adapters/http/signing/problem-messages.js';
import { acceptUpload, attachmentFields, keptFileName, sniffType } from '../../src/domain/attachments.js';
import { typedFields } from '../../src/domain/document.js';
import { fieldView, fieldOfView } from '../../src/domain/field-views.js';
import { declarePdfFields } from '../../src/domain/pdf-field-rules.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import { checkDefaultValue, declareFields } from '../../src/domain/template-fields.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const bytes = (...start: number[]) => Uint8Array.from([...start, 1, 2, 3]);
const upload = (content: Uint8Array, fileName = 'id.png', truncated = false) => ({
  index: 0,
  fileName,
  bytes: content,
  truncated,
});

const ALICE = 'alice@example.com';
const spec = htmlSpec({
  fields: [
    { name: 'id_document', type: 'attachment' },
    { name: 'proof', type: 'attachment', required: false },
    { name: 'has_proof', type: 'checkbox' },
    { name: 'proof_if', type: 'attachment', shownIf: { field: 'has_proof' } },
    { name: 'signature', type: 'signature' },
  ],
});
const request = sent({
  fields: ['id_document', 'proof', 'has_proof', 'proof_if', 'signature'].map((name) => ({
    name,
    defaultValue: null,
    assignedTo: ALICE,
  })),
});
const fields = typedFields(request, [spec]);
const mine = fieldsToFill(fields, request.signers[0]!);
const signed = (values: [number, string][], refusedUploads = new Map<number, string>()) =>
  checkSignature(mine, { values: new Map(values), typedName: 'Alice', consent: true, refusedUploads });
const problems = (answer: ReturnType<typeof signed>) =>
  E.isLeft(answer)
    ? answer.left.map((p) => [p.target._tag === 'Field' ? p.target.index : -1, p.message])
    : [];

/** ADR 3920: files signers upload for attachment fields. */
describe('requests domain: attachment fields', () => {
  it('is declared in an HTML template, required unless said otherwise, perhaps on a condition; never pre-filled or named by one', () => {
    const declared = right(
      declareFields([
        { name: 'id_document', type: 'attachment' },
        { name: 'proof', type: 'attachment', required: false, shown_if: { field: 'more' } },
        { name: 'more', type: 'checkbox' },
      ]),
    );
    assert.deepEqual(declared[1], {
      name: 'proof',
      type: 'attachment',
      required: false,
      shownIf: { field: 'more' },
    });
    for (const field of declared) assert.deepEqual(fieldOfView(fieldView(field)), field);
    assert.equal(
      checkDefaultValue(declared[0]!, 'id.png'),
      'is not allowed: "id_document" holds a file its signer uploads when they sign',
    );
    assert.deepEqual(left(declareFields([{ name: 'a', type: 'attachment', max_length: 3 }])), [
      { path: 'fields[0].max_length', message: 'is only allowed on a text field' },
    ]);
    const onFile = left(
      declareFields([
        { name: 'a', type: 'attachment' },
        { name: 'why', type: 'text', shown_if: { field: 'a' } },
      ]),
    );
    assert.equal(onFile[0]?.path, 'fields[1].shown_if.field');
    assert.match(onFile[0]?.message ?? '', /an attachment field/);
    assert.deepEqual(
      left(
        declarePdfFields([{ name: 'x', type: 'text', maxLength: null }], [{ name: 'x', type: 'attachment' }]),
      ),
      [
        {
          path: 'fields[0].type',
          message:
            'must be text, date, date_signed, initials or full_name: the PDF\'s field "x" is a text field',
        },
      ],
    );
  });

  it('knows a PDF, PNG or JPEG by its first bytes, whatever its name says', () => {
    assert.equal(sniffType(bytes(0x25, 0x50, 0x44, 0x46, 0x2d)), 'application/pdf');
    assert.equal(sniffType(bytes(...PNG)), 'image/png');
    assert.equal(sniffType(bytes(0xff, 0xd8, 0xff)), 'image/jpeg');
    assert.equal(sniffType(bytes(0x47, 0x49, 0x46, 0x38)), undefined, 'a GIF');
    assert.equal(sniffType(Buffer.from('%PDF')), undefined, 'cut short');
  });

  it('keeps a file’s own name, cleaned for a download, with its extension when cut', () => {
    assert.equal(keptFileName('C:\\Users\\jane\\ID scan.pdf', 'application/pdf'), 'ID scan.pdf');
    assert.equal(keptFileName('../../etc/passwd', 'image/png'), 'passwd');
    assert.equal(keptFileName('a\u0000b<c>:"d|e?*.png', 'image/png'), 'abcde.png');
    assert.equal(keptFileName('Führerschein ✓.jpg', 'image/jpeg'), 'Führerschein ✓.jpg');
    assert.equal(keptFileName('', 'image/jpeg'), 'attachment.jpg');
    assert.equal(keptFileName('..', 'application/pdf'), 'attachment.pdf');
    const long = keptFileName(`${'x'.repeat(300)}.pdf`, 'application/pdf');
    assert.equal(long.length, 200);
    assert.ok(long.endsWith('x.pdf'));
  });

  it('accepts a PDF, PNG or JPEG of at most 10 MB, and says why not otherwise, in words the page translates', () => {
    assert.deepEqual(
      acceptUpload(upload(bytes(...PNG))),
      E.right({ fileName: 'id.png', contentType: 'image/png', bytes: bytes(...PNG) }),
    );
    const refusals = [
      [upload(bytes(...PNG), 'id.png', true), 'must be at most 10 MB'],
      [upload(new Uint8Array()), 'is an empty file: choose it again'],
      [upload(Buffer.from('hello'), 'id.png'), 'must be a PDF, PNG or JPEG file'],
    ] as const;
    const de = translatorFor('de');
    for (const [given, why] of refusals) {
      assert.deepEqual(acceptUpload(given), E.left(why));
      assert.equal(isKnownProblem(why), true);
      assert.notEqual(problemText(de, why), why);
    }
    assert.equal(isKnownProblem('attach a file'), true);
  });

  it('is filled with the kept file’s name: a required one without is refused, an optional or hidden one left empty', () => {
    assert.deepEqual(
      attachmentFields(mine).map((f) => f.name),
      ['id_document', 'proof', 'proof_if'],
    );
    assert.deepEqual(problems(signed([])), [[0, 'attach a file']]);
    const answer = signed([[0, 'id.png']]);
    assert.deepEqual(E.isRight(answer) && answer.right.values, {
      id_document: 'id.png',
      proof: '',
      has_proof: false,
      proof_if: '',
    });
    assert.deepEqual(
      problems(
        signed([
          [0, 'id.png'],
          [2, 'on'],
        ]),
      ),
      [[3, 'attach a file']],
      'asked once ticked',
    );
    assert.deepEqual(
      problems(signed([[0, 'id.png']], new Map([[1, 'must be a PDF, PNG or JPEG file']]))),
      [[1, 'must be a PDF, PNG or JPEG file']],
      'a refused upload is said even beside a kept file',
    );
    assert.deepEqual(
      problems(signed([[0, 'id.png']], new Map([[3, 'must be at most 10 MB']]))),
      [],
      'nothing said of a field not asked for',
    );
  });
});
