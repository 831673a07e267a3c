// The spec's way to a token, through the gateway with the typed client (@esign/client):
// sign in, make a Developer App, re-enter the password for an access token, use it, then
// the machine route (client secret → client-credentials grant), and tidy up. Every answer
// is checked against the OpenAPI document (support/conformance.ts).
import assert from 'node:assert/strict';
import type { EsignClient } from '@esign/client';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { typedClient, clientOf, mailsTo, ok, unique, waitForMail, type ClientOf } from './support/flow.js';

const PASSWORD = 'a long passphrase for the e2e suite';

describe('end to end through the gateway: a token by self-service, with the typed client', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let acme: ClientOf;
  const typed = (accessToken?: string): EsignClient => typedClient(system, accessToken);

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_self_service' });
    acme = clientOf(system, await system.createTenant('Acme'));
  });
  after(async () => {
    await system?.stop();
  });
  /** The e-mail that tells the user their password changed (ADR 3020). */
  const noticeOfChange = async (email: string, how: string) => {
    const notice = await eventually(
      () =>
        Promise.resolve(mailsTo(system, email).find((m) => m.mail.subject === 'Your password was changed')),
      30_000,
    );
    assert.ok(notice.mail.text?.includes(how), notice.mail.text);
  };
  /** A user of Acme with PASSWORD, on its Site. */
  const newMember = async (email: string) => {
    await system.admin(
      'create-user',
      '--account',
      acme.tenant.accountId,
      '--email',
      email,
      '--password',
      PASSWORD,
    );
    await system.admin('add-member', '--site', String(acme.site), '--user', email);
  };

  it('signs in, makes an app and a token, uses it, and revokes it', async () => {
    const email = `dev-${unique()}@acme.example`;
    await newMember(email);

    const wrong = await typed().POST('/v1.1/sessions', { body: { email, password: 'not the password' } });
    assert.equal(wrong.response.status, 401);
    const session = ok(
      await typed().POST('/v1.1/sessions', { body: { email, password: PASSWORD } }),
      201,
      'sign in',
    );
    const me = typed(session.session_token);
    const current = ok(await me.GET('/v1.1/sessions/current'), 200, 'current session');
    assert.deepEqual(
      current.sites.map((s) => s.id),
      [acme.site],
    );

    const app = ok(await me.POST('/v1.1/apps', { body: { name: 'Nightly export' } }), 201, 'create app');
    const appPath = { params: { path: { app_id: app.id } } };
    assert.ok(ok(await me.GET('/v1.1/apps'), 200, 'list apps').data.some((a) => a.id === app.id));
    assert.equal(ok(await me.GET('/v1.1/apps/{app_id}', appPath), 200, 'get app').name, 'Nightly export');

    const refused = await me.POST('/v1.1/apps/{app_id}/tokens', { ...appPath, body: { password: 'wrong' } });
    assert.equal(refused.response.status, 401);
    const issued = ok(
      await me.POST('/v1.1/apps/{app_id}/tokens', {
        ...appPath,
        body: { password: PASSWORD, name: 'prod', expires_in_days: 30 },
      }),
      201,
      'create token',
    );
    assert.equal(issued.token_type, 'Bearer');
    const api = typed(issued.access_token);
    ok(
      await api.GET('/v1.1/sites/{site_id}/requests', { params: { path: { site_id: acme.site } } }),
      200,
      'the new token reaches the site',
    );

    const listed = ok(await me.GET('/v1.1/apps/{app_id}/tokens', appPath), 200, 'list app tokens');
    assert.deepEqual(
      listed.data.map((t) => t.id),
      [issued.id],
    );
    ok(await me.GET('/v1.1/tokens', { params: { query: { app_id: app.id } } }), 200, 'list tokens');
    const tokenPath = { params: { path: { token_id: issued.id } } };
    assert.equal(ok(await me.GET('/v1.1/tokens/{token_id}', tokenPath), 200, 'get token').state, 'active');

    // Machine clients: a client secret, then the client-credentials grant (a form body).
    const secret = ok(
      await me.POST('/v1.1/apps/{app_id}/client-secret', { ...appPath, body: { password: PASSWORD } }),
      201,
      'client secret',
    );
    const granted = ok(
      await typed().POST('/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: secret.client_id,
          client_secret: secret.client_secret,
        },
        bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
      200,
      'client-credentials grant',
    );
    ok(
      await typed(granted.access_token).GET('/v1.1/sites/{site_id}/contracts', {
        params: { path: { site_id: acme.site } },
      }),
      200,
      'the machine token reaches the site',
    );
    const badGrant = await typed().POST('/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: secret.client_id, client_secret: 'wrong' },
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(badGrant.response.status, 401);
    assert.equal((badGrant.error as { error?: string }).error, 'invalid_client');
    assert.equal((await me.DELETE('/v1.1/apps/{app_id}/client-secret', appPath)).response.status, 204);
    assert.ok(ok(await typed().GET('/.well-known/jwks.json'), 200, 'key set').keys.length >= 1);

    assert.equal((await me.DELETE('/v1.1/tokens/{token_id}', tokenPath)).response.status, 204);
    const deadline = Date.now() + 30_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await api.GET('/v1.1/sites/{site_id}/requests', { params: { path: { site_id: acme.site } } }))
        .response.status;
    }
    assert.equal(status, 401, 'a revoked token stops working within the introspection bound');

    assert.equal((await me.DELETE('/v1.1/apps/{app_id}', appPath)).response.status, 204);
    assert.equal((await me.DELETE('/v1.1/sessions/current')).response.status, 204);
    assert.equal((await me.GET('/v1.1/sessions/current')).response.status, 401);
  });

  it('changes the password: the old one, every session and every token stop; the new one signs in', async () => {
    const email = `change-${unique()}@acme.example`;
    await newMember(email);
    const signIn = (password: string) => typed().POST('/v1.1/sessions', { body: { email, password } });
    const me = typed(ok(await signIn(PASSWORD), 201, 'sign in').session_token);
    const app = ok(await me.POST('/v1.1/apps', { body: { name: 'Payroll' } }), 201, 'create app');
    const issued = ok(
      await me.POST('/v1.1/apps/{app_id}/tokens', {
        params: { path: { app_id: app.id } },
        body: { password: PASSWORD },
      }),
      201,
      'create token',
    );
    const requests = () =>
      typed(issued.access_token).GET('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
      });
    ok(await requests(), 200, 'the token works before the change');

    const NEW = 'another long passphrase, changed';
    const wrong = await me.POST('/v1.1/sessions/current/password', {
      body: { current_password: 'not the password', new_password: NEW },
    });
    assert.equal(wrong.response.status, 401);
    assert.deepEqual(wrong.error?.errors, [{ path: 'current_password', message: 'is wrong' }]);
    const weak = await me.POST('/v1.1/sessions/current/password', {
      body: { current_password: PASSWORD, new_password: 'too short' },
    });
    assert.equal(weak.response.status, 422);
    assert.equal(weak.error?.code, 'weak_password');

    const changed = ok(
      await me.POST('/v1.1/sessions/current/password', {
        body: { current_password: PASSWORD, new_password: NEW },
      }),
      200,
      'change password',
    );
    assert.deepEqual(changed, { sessions_ended: 1, tokens_revoked: 1, client_secrets_removed: 0 });
    assert.equal((await me.GET('/v1.1/sessions/current')).response.status, 401, 'this session ended');
    assert.equal((await signIn(PASSWORD)).response.status, 401, 'the old password is refused');
    ok(await signIn(NEW), 201, 'the new password signs in');
    const deadline = Date.now() + 30_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await requests()).response.status;
    }
    assert.equal(status, 401, 'the token made with the old password stops within the introspection bound');
    await noticeOfChange(email, 'by someone signed in to it');
  });

  it('a forgotten password: a link by e-mail from auth through the broker and the notifier, then a new password', async () => {
    const email = `forgot-${unique()}@acme.example`;
    await newMember(email);
    const signIn = (password: string) => typed().POST('/v1.1/sessions', { body: { email, password } });
    const session = typed(ok(await signIn(PASSWORD), 201, 'sign in').session_token);

    const asked = ok(await typed().POST('/v1.1/password-resets', { body: { email } }), 202, 'ask for a link');
    assert.equal(asked.expires_in, 1800);
    const mail = await waitForMail(system, email, 30_000);
    assert.equal(mail.mail.subject, 'Choose a new password');
    const link = /https?:\/\/\S+\/app\/reset-password\?token=prt_[A-Za-z0-9_-]+/.exec(mail.mail.text ?? '');
    assert.ok(link, mail.mail.text);
    const url = new URL(link[0]);
    assert.equal(url.origin, system.gatewayUrl, 'the link opens the web application behind the gateway');
    const token = url.searchParams.get('token')!;

    const NEW = 'chosen after a forgotten password';
    const changed = ok(
      await typed().POST('/v1.1/password-resets/confirm', { body: { token, new_password: NEW } }),
      200,
      'choose a new password',
    );
    assert.equal(changed.sessions_ended, 1);
    assert.equal((await session.GET('/v1.1/sessions/current')).response.status, 401);
    ok(await signIn(NEW), 201, 'the new password signs in');
    const used = await typed().POST('/v1.1/password-resets/confirm', {
      body: { token, new_password: 'and once more, a new one' },
    });
    assert.equal(used.response.status, 400);
    assert.equal(used.error?.code, 'invalid_reset_token');
    await noticeOfChange(email, 'with a link e-mailed to this address');
  });
});
