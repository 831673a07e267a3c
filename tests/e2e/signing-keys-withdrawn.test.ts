// The signing keys withdrawn at once (`rotate-key --revoke-previous`, a suspected leak; ADR
// 0301) through the whole system: the token a user held stops working at the gateway, and
// auth's outbox, RabbitMQ, the notifier and SMTP tell them so; a user of another account
// whose token was revoked before is not told.
import assert from 'node:assert/strict';
import pg from 'pg';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { apiClient, bearer, expectStatus } from './support/client.js';
import { mailsTo } from './support/flow.js';

describe('end to end: the signing keys withdrawn at once tell whoever held a live token', function () {
  this.timeout(120_000);
  let system: EsignSystem;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_keys_withdrawn' });
  });
  after(async () => {
    await system?.stop();
  });

  it('the token stops at the gateway, and its user is e-mailed how many stopped; a revoked one tells nobody', async () => {
    const [acme, globex] = await Promise.all([system.createTenant('Acme'), system.createTenant('Globex')]);
    await system.admin('revoke-token', '--token', globex.token.id);
    const client = apiClient(system.gatewayUrl, bearer(acme.token.accessToken));
    expectStatus(await client.get(`/v1.1/sites/${acme.site.id}/requests`), 200, 'before');

    const rotated = (await system.admin('rotate-key', '--revoke-previous')) as { revoked: string[] };
    assert.ok(rotated.revoked.length >= 1);

    const told = await eventually(
      () =>
        Promise.resolve(
          mailsTo(system, acme.user.email).find(
            (m) => m.mail.subject === 'Your access token stopped working',
          ),
        ),
      30_000,
      100,
    );
    assert.match(
      told.mail.text ?? '',
      /withdrew its signing keys .* your access token stopped working then\./,
    );
    assert.match(told.mail.text ?? '', /Create new tokens on the Developer Apps page/);
    await eventually(
      async () =>
        (await client.get(`/v1.1/sites/${acme.site.id}/requests`)).status === 401 ? true : undefined,
      30_000,
      250,
    );
    // Every withdrawal event was written in the withdrawal's one transaction, committed before
    // Acme's e-mail could be sent: the outbox holds them all, and Globex is not among them.
    const outbox = new pg.Client({ connectionString: system.databases.auth.url });
    await outbox.connect();
    try {
      const { rows } = await outbox.query<{ email: string }>(
        `SELECT envelope->'data'->>'email' AS email FROM outbox
         WHERE type = 'account.signing_keys_withdrawn' ORDER BY seq`,
      );
      assert.deepEqual(
        rows.map((r) => r.email),
        [acme.user.email],
        'a token revoked before is not counted',
      );
    } finally {
      await outbox.end();
    }
  });
});
