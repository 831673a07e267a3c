// Where a user is signed in, through the gateway with the typed client (ADR 3100): two
// sign-ins from two clients, listed with the User-Agent each sent; one ended from the
// other, then everywhere else. Every answer is checked against the OpenAPI document.
import assert from 'node:assert/strict';
import type { EsignClient } from '@esign/client';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { ok, typedClient } from './support/flow.js';

const PASSWORD = 'a long passphrase for the sessions suite';

describe('end to end through the gateway: a user’s sessions, listed and ended', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let email: string;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_sessions' });
    const tenant = await system.createTenant('Acme');
    email = tenant.user.email;
    await system.admin('set-password', '--user', email, '--password', PASSWORD);
  });
  after(async () => {
    await system?.stop();
  });

  const signInAs = async (userAgent: string): Promise<EsignClient> => {
    const body = { email, password: PASSWORD };
    const headers = { 'User-Agent': userAgent };
    const signedIn = ok(await typedClient(system).POST('/v1.1/sessions', { body, headers }), 201, 'sign in');
    return typedClient(system, signedIn.session_token);
  };

  it('lists each session with its client, ends one from another, then every other one', async () => {
    const laptop = await signInAs('Laptop/1.0 (e2e)');
    const phone = await signInAs('Phone/2.0 (e2e)');
    const tablet = await signInAs('Tablet/3.0 (e2e)');
    const listed = ok(await laptop.GET('/v1.1/sessions'), 200, 'list').data;
    assert.deepEqual(
      listed.map((s) => [s.user_agent, s.current]),
      [
        ['Tablet/3.0 (e2e)', false],
        ['Phone/2.0 (e2e)', false],
        ['Laptop/1.0 (e2e)', true],
      ],
    );
    assert.ok(
      listed.every((s) => s.client_address !== null),
      'the gateway names the client to auth',
    );
    assert.ok(
      listed.every((s) => s.last_active_at !== null && s.last_active_at >= s.created_at),
      'each was last active when it began, or since (ADR 3110)',
    );

    const phoneId = listed[1]!.id;
    const end = await laptop.DELETE('/v1.1/sessions/{session_id}', {
      params: { path: { session_id: phoneId } },
    });
    assert.equal(end.response.status, 204);
    assert.equal((await phone.GET('/v1.1/sessions/current')).response.status, 401, 'the phone is signed out');
    const gone = await tablet.DELETE('/v1.1/sessions/{session_id}', {
      params: { path: { session_id: '00000000-0000-4000-8000-000000000000' } },
    });
    assert.equal(gone.error?.code, 'not_found');

    const ended = ok(await laptop.DELETE('/v1.1/sessions/others'), 200, 'everywhere else');
    // (The operator's set-password ended every session before: ADR 1311.)
    assert.equal(ended.sessions_ended, 1, 'the tablet: the phone had ended');
    assert.equal((await tablet.GET('/v1.1/sessions/current')).response.status, 401);
    assert.equal(ok(await laptop.GET('/v1.1/sessions'), 200, 'list again').total_count, 1);
  });
});
