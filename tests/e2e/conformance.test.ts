// The conformance check the end-to-end suites run on every answer, against the real
// document, on answers made up to differ from it in one way each: it must refuse them all.
import assert from 'node:assert/strict';
import { openApiDocument } from '@esign/contracts/openapi';
import { conformanceTo, type Checked } from './support/conformance.js';

const document = openApiDocument() as unknown as Parameters<typeof conformanceTo>[0];

const problem = (status: number, code: string) =>
  JSON.stringify({ type: `https://docs.esign.example/problems/${code}`, title: 'x', status, code });

const request = {
  id: '5f0c7c4e-8f7a-4c1e-9a55-0d1c9b7e2a10',
  site_id: 7,
  state: 'draft',
  contracts: [1],
  signers: [],
  fields: [],
  render_data: {},
  redirect_url: null,
  expires_at: null,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  sent_at: null,
  cancelled_at: null,
  expired_at: null,
  completed_at: null,
  declined_at: null,
  last_reminded_at: null,
  remind_count: 0,
  reminder_interval_days: null,
  next_reminder_at: null,
  current_order: null,
  test_mode: false,
  cc: [],
  message: null,
  title: null,
  subject: null,
  copied_from: null,
  bulk_send_id: null,
  allow_reassign: false,
};

const answer = (overrides: Partial<Checked>): Checked => ({
  method: 'GET',
  url: `/v1.1/requests/${request.id}`,
  status: 200,
  contentType: 'application/json; charset=utf-8',
  text: JSON.stringify(request),
  ...overrides,
});

describe('end to end: the OpenAPI conformance check', () => {
  const { check, seen } = conformanceTo(document);

  it('accepts an answer the document describes, and records its operation', () => {
    assert.equal(check(answer({})), 'getRequest');
    assert.equal(
      check(
        answer({ status: 404, contentType: 'application/problem+json', text: problem(404, 'not_found') }),
      ),
      'getRequest',
    );
    assert.ok(seen.has('getRequest 200') && seen.has('getRequest 404'));
    assert.equal(
      check(answer({ method: 'DELETE', url: '/v1.1/tokens/t1', status: 204, contentType: null, text: '' })),
      'revokeToken',
    );
  });

  it('refuses an undocumented path, status, content type or body', () => {
    assert.throws(() => check(answer({ url: '/v1.1/requests/r1/archive' })), /no documented operation/);
    assert.throws(() => check(answer({ method: 'PUT' })), /no documented operation/);
    assert.throws(() => check(answer({ status: 202 })), /status not documented/);
    assert.throws(() => check(answer({ contentType: 'text/html' })), /content type text\/html/);
    assert.throws(
      () => check(answer({ text: JSON.stringify({ ...request, state: 'archived' }) })),
      /does not match getRequest's schema/,
    );
    assert.throws(
      () => check(answer({ text: JSON.stringify({ ...request, remind_count: undefined }) })),
      /remind_count/,
    );
    assert.throws(
      () =>
        check(
          answer({ method: 'DELETE', url: '/v1.1/tokens/t1', status: 204, contentType: null, text: '{}' }),
        ),
      /a body where none is documented/,
    );
  });

  it('refuses a problem whose code the operation does not list for that status', () => {
    const conflict = (code: string) =>
      answer({
        method: 'POST',
        url: `/v1.1/requests/${request.id}/send`,
        status: 409,
        contentType: 'application/problem+json',
        text: problem(409, code),
      });
    assert.equal(check(conflict('invalid_state')), 'sendRequest');
    assert.throws(() => check(conflict('remind_limit_reached')), /does not match sendRequest's schema/);
    assert.throws(
      () =>
        check({
          ...conflict('invalid_state'),
          contentType: 'application/json',
        }),
      /content type application\/json/,
    );
  });
});
