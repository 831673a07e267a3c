// A replacement in a Request's History (ADR 3550): who replaced whom, by whom (the signer
// themselves, ADR 3560), and whether the one replaced was told they need not sign.
import assert from 'node:assert/strict';
import request from 'supertest';
import {
  appWith,
  COOKIE,
  CURRENT,
  page as listPage,
  REQUEST_ID as ID,
  requestView,
} from '../support/fake-api.js';
import { flat } from '../support/page-text.js';

const AT = '2030-01-01T00:00:00.000Z';

describe('web: a signer replaced, in the Request’s History', () => {
  it('says in the History who replaced whom, whether the one replaced was told, and a correction as before', async () => {
    const entry = (n: number, data: Record<string, unknown>) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      type: 'request.signer_updated',
      created_at: AT,
      site_id: 3,
      data: { request_id: ID, corrected_by: 'owner@acme.test', link_replaced: true, ...data },
    });
    const was = {
      email: 'ann@example.com',
      mobile_number: null,
      send_to: { email: true, mobile_number: false },
    };
    const replaced = (n: number, from: string, to: string, more = {}) =>
      entry(n, {
        signer_id: to,
        changed: ['signer_id', 'email'],
        previous: { ...was, signer_id: from },
        ...more,
      });
    const entries = [
      replaced(1, 'ann@example.com', 'bob@example.com', { previous_notified: true }),
      entry(2, { signer_id: 'bob@example.com', changed: ['email'], previous: was }),
      // ADR 3560: bob asked cal to sign in his place.
      replaced(3, 'bob@example.com', 'cal@example.com', { corrected_by: 'bob@example.com' }),
    ];
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/requests/${ID}`]: requestView('sent'),
      [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: listPage([...entries].reverse()),
    });
    const page = (await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200))
      .text;
    const history = /<section aria-labelledby="history-title">[^]*?<\/section>/.exec(page)?.[0] ?? '';
    const rows = [...history.matchAll(/<\/time><\/td>\s*<td>([^]*?)<\/td>/g)].map((m) => flat(m[1]!).trim());
    assert.deepEqual(rows, [
      'Signer replaced: ann@example.com → bob@example.com by owner@acme.test; ann@example.com was told',
      'Contact corrected for bob@example.com by owner@acme.test (new link)',
      'Signer replaced: bob@example.com → cal@example.com at bob@example.com’s request',
    ]);
  });
});
