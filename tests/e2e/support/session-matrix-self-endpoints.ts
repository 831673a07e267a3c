// The session matrix's calls a user makes on their own behalf: their sessions (ADR 3100),
// password (ADR 3020), Developer Apps, client secrets, tokens and frame origins, and the
// third-party apps they authorised (ADR 3070). Another user's app, token or session is a 404.
import assert from 'node:assert/strict';
import { expectStatus } from './client.js';
import { unique } from './flow.js';
import { idOf, sessionClient, type SessionEndpoint, type SessionWorld } from './session-matrix-kinds.js';

export const selfServiceEndpoints = (world: SessionWorld): SessionEndpoint[] => {
  const { admin, password } = world;
  const app = (body: Record<string, unknown> = {}) =>
    idOf(admin.post<{ id: string }>('/v1.1/apps', { name: `App ${unique()}`, ...body }), 201, 'make an app');
  const appStays = (id: string) => async () => {
    expectStatus(await admin.get(`/v1.1/apps/${id}`), 200, 'a refused call deleted no app');
  };
  const token = async () =>
    idOf(
      admin.post<{ id: string }>(`/v1.1/apps/${await app()}/tokens`, { password, name: `t ${unique()}` }),
      201,
      'make a token',
    );
  /** New sessions of two new users for `own` and `member`, so that ending them ends no shared one. */
  const newUsersSessions = async () => {
    const [own, member] = await Promise.all([world.newMember(), world.newMember()]);
    return { own: own.session, member: member.session };
  };

  return [
    {
      name: 'GET /v1.1/sessions/current',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/sessions/current' }),
      expect: { own: 200, member: 200, other: 200 },
    },
    {
      name: 'POST /v1.1/sessions/current/access-token',
      method: 'POST',
      prepare: () => Promise.resolve({ path: '/v1.1/sessions/current/access-token' }),
      expect: { own: 201, member: 201, other: 201 },
    },
    {
      // The password of a new user, whose session is `own`: a change ends their other sessions.
      // Anyone else gives it as their current password, which it is not.
      name: 'POST /v1.1/sessions/current/password',
      method: 'POST',
      prepare: async () => {
        const theirs = `${password} of their own ${unique()}`;
        const changer = await world.newMember(theirs);
        return {
          path: '/v1.1/sessions/current/password',
          body: { current_password: theirs, new_password: `${theirs} changed` },
          as: { own: changer.session },
          unchanged: async () => {
            await world.signIn(changer.email, theirs);
          },
        };
      },
      expect: { own: 200, member: 401, other: 401 },
    },
    {
      name: 'GET /v1.1/sessions',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/sessions' }),
      expect: { own: 200, member: 200, other: 200 },
    },
    {
      // The admin's second session, ended by id: only its own user may end it.
      name: 'DELETE /v1.1/sessions/:id',
      method: 'DELETE',
      prepare: async () => {
        const second = sessionClient(world.gatewayUrl, await world.signIn(world.adminEmail));
        const id = expectStatus(
          await second.get<{ data: { id: string; current: boolean }[] }>('/v1.1/sessions'),
          200,
        ).body.data.find((s) => s.current)!.id;
        return {
          path: `/v1.1/sessions/${id}`,
          unchanged: async () => {
            expectStatus(await second.get('/v1.1/sessions/current'), 200, 'a refused call ended no session');
          },
        };
      },
      expect: { own: 204 },
    },
    {
      name: 'DELETE /v1.1/sessions/others',
      method: 'DELETE',
      prepare: async () => ({ path: '/v1.1/sessions/others', as: await newUsersSessions() }),
      expect: { own: 200, member: 200, other: 200 },
    },
    {
      name: 'DELETE /v1.1/sessions/current',
      method: 'DELETE',
      prepare: async () => {
        // Each signs out of a session of its own, so that the shared ones live on.
        const [own, other, member] = await Promise.all([
          world.signIn(world.adminEmail),
          world.signIn(world.otherEmail),
          world.newMember(),
        ]);
        return { path: '/v1.1/sessions/current', as: { own, other, member: member.session } };
      },
      expect: { own: 204, member: 204, other: 204 },
    },
    {
      name: 'POST /v1.1/apps',
      method: 'POST',
      prepare: () => Promise.resolve({ path: '/v1.1/apps', body: { name: `App ${unique()}` } }),
      expect: { own: 201, member: 201, other: 201 },
    },
    {
      name: 'GET /v1.1/apps',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/apps' }),
      expect: { own: 200, member: 200, other: 200 },
    },
    {
      name: 'GET /v1.1/apps/:id',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/apps/${await app()}` }),
      expect: { own: 200 },
    },
    {
      name: 'PATCH /v1.1/apps/:id',
      method: 'PATCH',
      // An app's callback URL set, which makes it an OAuth client (ADR 3070).
      prepare: async () => {
        const id = await app();
        const callbackOf = async () =>
          expectStatus(await admin.get<{ callback_url: string | null }>(`/v1.1/apps/${id}`), 200).body
            .callback_url;
        return {
          path: `/v1.1/apps/${id}`,
          body: { callback_url: `https://integrator.example/${unique()}` },
          unchanged: async () => assert.equal(await callbackOf(), null, 'a refused call set no callback URL'),
        };
      },
      expect: { own: 200 },
    },
    {
      name: 'DELETE /v1.1/apps/:id',
      method: 'DELETE',
      prepare: async () => {
        const id = await app();
        return { path: `/v1.1/apps/${id}`, unchanged: appStays(id) };
      },
      expect: { own: 204 },
    },
    {
      name: 'POST /v1.1/apps/:id/client-secret',
      method: 'POST',
      prepare: async () => ({ path: `/v1.1/apps/${await app()}/client-secret`, body: { password } }),
      expect: { own: 201 },
    },
    {
      name: 'DELETE /v1.1/apps/:id/client-secret',
      method: 'DELETE',
      prepare: async () => {
        const id = await app();
        expectStatus(await admin.post(`/v1.1/apps/${id}/client-secret`, { password }), 201, 'a secret');
        return {
          path: `/v1.1/apps/${id}/client-secret`,
          unchanged: async () => {
            const now = expectStatus(
              await admin.get<{ has_client_secret: boolean }>(`/v1.1/apps/${id}`),
              200,
            );
            assert.equal(now.body.has_client_secret, true, 'a refused call removed no secret');
          },
        };
      },
      expect: { own: 204 },
    },
    {
      name: 'POST /v1.1/apps/:id/tokens',
      method: 'POST',
      prepare: async () => ({ path: `/v1.1/apps/${await app()}/tokens`, body: { password } }),
      expect: { own: 201 },
    },
    {
      name: 'GET /v1.1/apps/:id/tokens',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/apps/${await app()}/tokens` }),
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/apps/:id/frame_origins',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/apps/${await app()}/frame_origins` }),
      expect: { own: 200 },
    },
    {
      name: 'PUT /v1.1/apps/:id/frame_origins',
      method: 'PUT',
      prepare: async () => {
        const id = await app();
        return {
          path: `/v1.1/apps/${id}/frame_origins`,
          body: { allowed_frame_origins: ['https://portal.acme.example'] },
          unchanged: async () => {
            const now = expectStatus(
              await admin.get<{ allowed_frame_origins: string[] }>(`/v1.1/apps/${id}/frame_origins`),
              200,
            );
            assert.deepEqual(now.body.allowed_frame_origins, [], 'a refused call allowed no origin');
          },
        };
      },
      expect: { own: 200 },
    },
    {
      name: 'GET /v1.1/tokens',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/tokens' }),
      expect: { own: 200, member: 200, other: 200 },
    },
    {
      name: 'GET /v1.1/tokens/:id',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/tokens/${await token()}` }),
      expect: { own: 200 },
    },
    {
      name: 'DELETE /v1.1/tokens/:id',
      method: 'DELETE',
      prepare: async () => {
        const id = await token();
        return {
          path: `/v1.1/tokens/${id}`,
          unchanged: async () => {
            const now = expectStatus(await admin.get<{ state: string }>(`/v1.1/tokens/${id}`), 200);
            assert.equal(now.body.state, 'active', 'a refused call revoked no token');
          },
        };
      },
      expect: { own: 204 },
    },
  ];
};
