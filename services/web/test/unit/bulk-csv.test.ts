import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { CreateBulkSendBodyDocumented } from '@esign/contracts';
import { mapCsv } from '../../src/bulk-csv.js';

const tokens = new Set(['client_name', 'plan']);

describe('web: a bulk-send CSV file as the rows the API takes', () => {
  it('maps signers (in signing order), e-mail addresses, render_data and field values; empty cells give nothing', () => {
    const csv =
      '\uFEFFsigner_id_2,signer_id_1,signer_email_1,render_data.client_name,field.plan\r\n' +
      'b-1,a-1,ann@example.com,"Ann, Ltd",basic\r\n' +
      ',c-1,,,\r\n' +
      '\r\n';
    const mapped = mapCsv(csv, tokens);
    assert.deepEqual(mapped.problems, []);
    assert.equal(mapped.blocked, false);
    assert.deepEqual(mapped.rows, [
      {
        signers: [
          { signer_id: 'a-1', signer: { email: 'ann@example.com' }, send_to: { email: true } },
          { signer_id: 'b-1' },
        ],
        render_data: { client_name: 'Ann, Ltd' },
        fields: [{ name: 'plan', default_value: 'basic' }],
      },
      { signers: [{ signer_id: 'c-1' }] },
    ]);
    // Exactly the shape the API documents for a bulk send's rows.
    const body = CreateBulkSendBodyDocumented.decode({ contracts: [1], rows: mapped.rows });
    assert.ok(E.isRight(body), 'the rows decode as the API body');
  });

  it('reports a row without a signer and a token no chosen contract has, at the paths the API would, and lets the file go', () => {
    const mapped = mapCsv(
      'signer_id,render_data.client_name,render_data.nickname\nc-1,Ann,\n,Bob,\nc-3,Cy,Cee\n',
      tokens,
    );
    assert.equal(mapped.blocked, false);
    assert.equal(mapped.rows.length, 3);
    assert.deepEqual(mapped.rows[1], { signers: [], render_data: { client_name: 'Bob' } });
    assert.deepEqual(
      mapped.problems.map((p) => [p.row, p.line, p.column, p.message]),
      [
        [1, 3, undefined, 'rows[1].signers: the row has no signer_id.'],
        [
          2,
          4,
          'render_data.nickname',
          'rows[2].render_data.nickname: the chosen contracts have no token "nickname".',
        ],
      ],
    );
    // Without the contracts' tokens nothing is said about them.
    assert.equal(mapCsv('signer_id,render_data.nickname\nc-1,x\n').problems.length, 0);
  });

  it('refuses a file that is not good CSV, naming the line and column', () => {
    const ragged = mapCsv('signer_id,render_data.client_name\nc-1,Ann\nc-2\nc-3,Cy\n', tokens);
    assert.equal(ragged.blocked, true);
    assert.equal(ragged.problems.length, 1);
    assert.equal(ragged.problems[0]?.line, 3);
    assert.equal(ragged.problems[0]?.column, '1');
    assert.match(ragged.problems[0]?.message ?? '', /Invalid Record Length: expect 2, got 1 on line 3/);
    const unclosed = mapCsv('signer_id\nc-1\n"c-2\nc-3\n');
    assert.equal(unclosed.blocked, true);
    assert.match(unclosed.problems[0]?.message ?? '', /Quote Not Closed/);
  });

  it('refuses a header it cannot read: unknown or repeated columns, no signer_id', () => {
    const mapped = mapCsv('signer_id,signer_id_1,email,render_data.\nc-1,c-2,x,y\n');
    assert.equal(mapped.blocked, true);
    assert.deepEqual(
      mapped.problems.map((p) => [p.line, p.column]),
      [
        [1, 'signer_id_1'],
        [1, 'email'],
        [1, 'render_data.'],
      ],
    );
    assert.match(mapped.problems[0]?.message ?? '', /appears twice/);
    const noSigner = mapCsv('render_data.client_name\nAnn\n');
    assert.deepEqual(
      noSigner.problems.map((p) => p.message),
      ['The header has no signer_id column.'],
    );
  });

  it('maps a title column to each row’s own title (ADR 3390), trimmed; an empty cell gives none', () => {
    const mapped = mapCsv('title,signer_id\n  Ann’s renewal  ,c-1\n,c-2\n   ,c-3\n', tokens);
    assert.deepEqual(mapped.problems, []);
    assert.deepEqual(mapped.rows, [
      { signers: [{ signer_id: 'c-1' }], title: 'Ann’s renewal' },
      { signers: [{ signer_id: 'c-2' }] },
      { signers: [{ signer_id: 'c-3' }] },
    ]);
    const body = CreateBulkSendBodyDocumented.decode({ contracts: [1], rows: mapped.rows });
    assert.ok(E.isRight(body), 'the rows decode as the API body');
    const twice = mapCsv('signer_id,title,title\nc-1,a,b\n');
    assert.equal(twice.blocked, true);
    assert.deepEqual(
      twice.problems.map((p) => [p.line, p.column, p.message]),
      [[1, 'title', '"title" appears twice in the header.']],
    );
    assert.match(
      mapCsv('signer_id,titles\nc-1,a\n').problems[0]?.message ?? '',
      /is not a column this page reads \(.*, title\)/,
    );
  });

  it('reports a title the API would refuse, too long or not one line, on its row alone', () => {
    const long = 'x'.repeat(256);
    const mapped = mapCsv(
      `signer_id,title\nc-1,${'y'.repeat(255)}\nc-2,${long}\nc-3,"two\nlines"\nc-4,tab\there\n`,
    );
    assert.equal(mapped.blocked, false);
    assert.equal(mapped.rows.length, 4);
    assert.equal(mapped.rows[1]?.title, long, 'sent as it is: the API refuses that row');
    assert.deepEqual(
      mapped.problems.map((p) => [p.row, p.line, p.column, p.message, p.blocking]),
      [
        [1, 3, 'title', 'rows[1].title: must be at most 255 characters.', false],
        [2, 4, 'title', 'rows[2].title: must be one line, without control characters.', false],
        [3, 5, 'title', 'rows[3].title: must be one line, without control characters.', false],
      ],
    );
  });

  it('refuses an empty file, a header without rows, and more than 1000 rows', () => {
    assert.deepEqual(
      mapCsv('').problems.map((p) => p.blocking),
      [true],
    );
    assert.match(mapCsv('signer_id\n').problems[0]?.message ?? '', /no rows/);
    const rows = (n: number) => `signer_id\n${Array.from({ length: n }, (_, i) => `c-${i}`).join('\n')}\n`;
    assert.equal(mapCsv(rows(1000)).blocked, false);
    const tooMany = mapCsv(rows(1001));
    assert.equal(tooMany.blocked, true);
    assert.deepEqual(
      tooMany.problems.map((p) => p.message),
      ['The file has 1001 rows; one bulk send takes at most 1000.'],
    );
  });
});
