import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import {
  progressOf,
  rowBody,
  rowErrors,
  type BulkShared,
  type RowStatus,
} from '../../src/domain/bulk-send.js';

const shared: BulkShared = {
  contracts: [3],
  fields: [
    { name: 'full_name', default_value: 'Customer' },
    { name: 'plan', default_value: 'basic' },
  ],
  redirect_url: 'https://client.example/done',
  test_mode: true,
  send: true,
  message: 'Your renewal, as agreed.',
  subject: 'Your renewal',
};

describe('bulk send (issue #22): rows', () => {
  it("makes a row's create body: shared parts (the message and subject too), its signers and render_data, its fields over the shared ones", () => {
    const body = rowBody(shared, 0, {
      signers: [{ signer_id: 'ann@example.com' }],
      render_data: { name: 'Ann' },
      fields: [{ name: 'plan', default_value: 'gold', assigned_to: 'ann@example.com' }],
      title: ' Renewal — Ann ',
    });
    assert.deepEqual(
      body,
      E.right({
        contracts: [3],
        signers: [{ signer_id: 'ann@example.com' }],
        fields: [
          { name: 'plan', default_value: 'gold', assigned_to: 'ann@example.com' },
          { name: 'full_name', default_value: 'Customer' },
        ],
        render_data: { name: 'Ann' },
        // ADR 3390: each row's own title, trimmed as the create would.
        title: 'Renewal — Ann',
        redirect_url: 'https://client.example/done',
        test_mode: true,
        // ADRs 3380, 3400: each Request carries the shared message and e-mail subject.
        message: 'Your renewal, as agreed.',
        subject: 'Your renewal',
      }),
    );
  });

  it('names what is wrong with a row at its place in the bulk body', () => {
    const empty = rowBody(shared, 7, { signers: [{ signer_id: '' }] });
    assert.deepEqual(E.isLeft(empty) && empty.left.map((e) => e.path), ['rows[7].signers[0].signer_id']);
    assert.deepEqual(
      rowBody(shared, 9, { signers: [{ signer_id: 'a' }], extra: 1 }),
      E.left([{ path: 'rows[9].extra', message: 'unknown field' }]),
    );
    assert.deepEqual(
      rowBody(shared, 2, 'a string'),
      E.left([{ path: 'rows[2]', message: 'must be an object' }]),
    );
    assert.deepEqual(
      rowBody(shared, 3, { signers: [{ signer_id: 'a' }], title: 'two\nlines' }),
      E.left([{ path: 'rows[3].title', message: 'must be one line, without control characters' }]),
    );
    assert.deepEqual(rowErrors(4, [{ path: 'render_data.x', message: 'no' }]), [
      { path: 'rows[4].render_data.x', message: 'no' },
    ]);
  });

  it('counts rows made, sent, failed and cancelled; a failed send still counts its Request as made', () => {
    const row = (status: RowStatus, requestId: string | null) => ({
      row: 0,
      status,
      requestId,
      errors: [],
    });
    assert.deepEqual(
      progressOf([
        row('sent', 'a'),
        row('failed', 'b'),
        row('failed', null),
        row('pending', null),
        row('created', 'c'),
        row('cancelled', null),
      ]),
      { total: 6, created: 3, sent: 1, failed: 2, cancelled: 1, pending: 1 },
    );
  });
});
