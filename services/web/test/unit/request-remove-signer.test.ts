import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID } from '../support/fake-api.js';
import { ALONE, ANN, DRAFT, ODD, shown } from '../support/draft-signers.js';
import { requestPageForm } from '../support/request-page.js';

const DELETE = `DELETE /v1.1/requests/${ID}/signers/bob%2Fx%40example.com`;

/**
 * Each draft signer's **Remove** (ADR 3280), over the fake API: offered while there are two
 * or more, the call it makes, the notice naming the fields left without a signer, the
 * API's refusal; and History's words for a signer added and removed.
 */
describe('web: removing a draft’s signer', () => {
  const remove = requestPageForm({
    action: 'remove-signer',
    call: DELETE,
    shown: DRAFT,
    hidden: { signer_id: ODD, idempotency_key: 'key-remove-1' },
  });

  it('gives each signer of a draft of several a Remove of their own, none to its only signer', async () => {
    const text = await remove.show(DRAFT);
    const removes = [
      ...text.matchAll(
        /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/remove-signer" class="inline">[^]*?<\/form>/g,
      ),
    ].map((m) => m[0]);
    assert.equal(removes.length, 2);
    assert.match(removes[1]!, /name="signer_id" value="bob\/x@example.com"/);
    assert.match(removes[1]!, /name="idempotency_key" value="[0-9a-f-]{36}"/);
    assert.match(
      removes[1]!,
      /<button type="submit" class="danger" aria-label="Remove bob\/x@example.com from this draft">Remove<\/button>/,
    );
    assert.notEqual(
      /idempotency_key" value="([^"]+)"/.exec(removes[0]!)?.[1],
      /idempotency_key" value="([^"]+)"/.exec(removes[1]!)?.[1],
      'a key each',
    );
    assert.match(text, /<strong>Remove<\/strong> takes a signer off this draft/);
    const alone = await remove.show(ALONE);
    assert.doesNotMatch(alone, /remove-signer/, 'a Request has at least one signer');
    assert.match(alone, /A Request has at least one signer: to replace them, add the new signer first/);
    assert.match(alone, /id="add-signer-title"/);
  });

  it('removes a signer by their encoded id with the form’s Idempotency-Key, and names the fields left without one', async () => {
    const without = {
      ...DRAFT,
      signers: [ANN],
      fields: [DRAFT.fields[0]!, { ...DRAFT.fields[1]!, assigned_to: null }],
    };
    const app = appWith(remove.answers(without));
    const res = await remove.post(app, {}).expect(303);
    assert.equal(
      res.headers.location,
      `/app/requests/${ID}?done=signer-removed&signer_id=bob%2Fx%40example.com`,
    );
    assert.deepEqual(
      remove.calls(app).map((c) => [c.method, c.path, c.body, c.idempotencyKey]),
      [['DELETE', `/v1.1/requests/${ID}/signers/bob%2Fx%40example.com`, undefined, 'key-remove-1']],
    );
    const after = await shown(without, '?done=signer-removed&signer_id=bob%2Fx%40example.com');
    assert.match(
      after,
      /<p class="success" role="status">\s*bob\/x@example.com was removed from this draft\.\s*This field has no signer now:\s*<strong>agree<\/strong>\. Choose a signer for it under\s*<a href="#fields-title">Fields<\/a> before sending the Request\./,
    );
    const none = await shown(ALONE, `?done=signer-removed&signer_id=${encodeURIComponent(ODD)}`);
    assert.match(none, /was removed from this draft\.\s*<\/p>/, 'no field left without a signer');
    const forged = await shown(DRAFT, `?done=signer-removed&signer_id=${encodeURIComponent(ODD)}`);
    assert.doesNotMatch(forged, /was removed/, 'not claimed while they are listed');
  });

  it('shows the API’s refusal to remove the only signer', async () => {
    const refused = apiProblem(409, 'last_signer', 'A Request has at least one signer.');
    const app = appWith(remove.answers(refused, ALONE));
    const text = (await remove.post(app, {}).expect(409)).text;
    assert.match(
      text,
      /<div class="errors" role="alert"[^]*A Request has at least one signer\. bob\/x@example.com was not removed\./,
    );
    assert.equal(remove.calls(app).length, 1);
  });
});

describe('web: a draft’s signers added and removed in its History', () => {
  it('names who was added and removed, and the fields left without a signer', async () => {
    const event = (type: string, data: Record<string, unknown>, n: number) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      type,
      created_at: `2030-01-02T10:0${n}:00.000Z`,
      site_id: 3,
      data: { request_id: ID, ...data },
    });
    const contact = {
      email: 'cy@example.com',
      mobile_number: null,
      send_to: { email: true, mobile_number: false },
    };
    const entries = [
      event('request.signer_added', { signer_id: 'cy', signer_ref: 'ref-cy', ...contact }, 0),
      event('request.signer_removed', { signer_id: 'cy', signer_ref: 'ref-cy', unassigned_fields: [] }, 1),
      event(
        'request.signer_removed',
        { signer_id: ODD, signer_ref: 'ref-bob', unassigned_fields: ['agree'] },
        2,
      ),
      event(
        'request.signer_removed',
        { signer_ref: 'ref-ann', unassigned_fields: ['full_name', 'agree'] },
        3,
      ),
    ];
    const text = await shown(DRAFT, '', [...entries].reverse());
    const history = /<section aria-labelledby="history-title">[^]*?<\/section>/.exec(text)?.[0] ?? '';
    const happened = [...history.matchAll(/<tr>\s*<td><time[^]*?<\/time><\/td>\s*<td>([^]*?)<\/td>/g)].map(
      (m) => m[1]!.replace(/\s+/g, ' ').trim(),
    );
    assert.deepEqual(happened, [
      'Signer added: cy',
      'Signer removed: cy',
      'Signer removed: bob/x@example.com — field left unassigned: agree',
      'Signer removed: ann@example.com — fields left unassigned: full_name, agree',
    ]);
    assert.match(history, /<code>request\.signer_added<\/code>/);
  });
});
