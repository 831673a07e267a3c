// The session matrix's calls on the account (ADRs 3030–3060, 3090): its name, Sites, their
// members, its users and invitations, which only its admins change; and the consent to a
// third-party app (ADR 3070), which every signed-in user may give for their own Sites.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { expectStatus } from './client.js';
import { unique } from './flow.js';
import { idOf, type SessionEndpoint, type SessionWorld } from './session-matrix-kinds.js';

export const accountEndpoints = (world: SessionWorld): SessionEndpoint[] => {
  const { admin } = world;
  /** A new Site of the own account (never the shared one, whose name the leak check looks for). */
  const newSite = async () =>
    expectStatus(
      await admin.post<{ id: number; name: string }>('/v1.1/account/sites', { name: `Team ${unique()}` }),
      201,
      'make a Site',
    ).body;
  const siteOf = async (id: number) =>
    expectStatus(
      await admin.get<{ data: { id: number; name: string; members: { email: string }[] }[] }>(
        '/v1.1/account/sites?per_page=100',
      ),
      200,
    ).body.data.find((s) => s.id === id);
  const accountName = async () =>
    expectStatus(await admin.get<{ name: string }>('/v1.1/account'), 200).body.name;
  const invitation = () =>
    idOf(
      admin.post<{ id: string }>('/v1.1/account/invitations', {
        email: `invited-${unique()}@example.test`,
        site_ids: [world.site],
      }),
      201,
      'invite',
    );
  /** Only the admin may change the account: a member is refused, another account's admin finds nothing. */
  const adminOnly = { own: 200, member: 403 };

  return [
    {
      name: 'GET /v1.1/account',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/account' }),
      expect: { own: 200, member: 200, other: 200 },
    },
    {
      // `other` renames its own account: the path names no account.
      name: 'PATCH /v1.1/account',
      method: 'PATCH',
      prepare: async () => {
        const before = await accountName();
        return {
          path: '/v1.1/account',
          body: { name: `Renamed ${unique()}` },
          unchanged: async () => assert.equal(await accountName(), before, 'a refused call renamed nothing'),
        };
      },
      expect: { ...adminOnly, other: 200 },
    },
    {
      name: 'GET /v1.1/account/sites',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/account/sites' }),
      expect: { own: 200, member: 403, other: 200 },
    },
    {
      name: 'POST /v1.1/account/sites',
      method: 'POST',
      prepare: () => Promise.resolve({ path: '/v1.1/account/sites', body: { name: `Team ${unique()}` } }),
      expect: { own: 201, member: 403, other: 201 },
    },
    {
      name: 'PATCH /v1.1/account/sites/:id',
      method: 'PATCH',
      prepare: async () => {
        const site = await newSite();
        return {
          path: `/v1.1/account/sites/${site.id}`,
          body: { name: `Renamed ${unique()}` },
          unchanged: async () =>
            assert.equal((await siteOf(site.id))?.name, site.name, 'a refused call renamed no Site'),
        };
      },
      expect: adminOnly,
    },
    {
      name: 'POST /v1.1/account/sites/:id/members',
      method: 'POST',
      prepare: async () => {
        const [site, user] = await Promise.all([newSite(), world.newMember()]);
        return {
          path: `/v1.1/account/sites/${site.id}/members`,
          body: { email: user.email },
          unchanged: async () =>
            assert.ok(
              !(await siteOf(site.id))?.members.some((m) => m.email === user.email),
              'a refused call added no member',
            ),
        };
      },
      expect: { own: 201, member: 403 },
    },
    {
      name: 'DELETE /v1.1/account/sites/:id/members/:id',
      method: 'DELETE',
      prepare: async () => {
        const user = await world.newMember();
        return {
          path: `/v1.1/account/sites/${world.site}/members/${user.id}`,
          unchanged: async () =>
            assert.ok(
              (await siteOf(world.site))?.members.some((m) => m.email === user.email),
              'a refused call removed no member',
            ),
        };
      },
      expect: { own: 204, member: 403 },
    },
    {
      name: 'GET /v1.1/account/users',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/account/users' }),
      expect: { own: 200, member: 403, other: 200 },
    },
    {
      name: 'PATCH /v1.1/account/users/:id',
      method: 'PATCH',
      prepare: async () => {
        const user = await world.newMember();
        return {
          path: `/v1.1/account/users/${user.id}`,
          body: { disabled: true },
          // Disabled, they could not sign in.
          unchanged: async () => void (await world.signIn(user.email)),
        };
      },
      expect: adminOnly,
    },
    {
      // Another account's admin names a Site that is not theirs: the Sites are refused.
      name: 'POST /v1.1/account/invitations',
      method: 'POST',
      prepare: () =>
        Promise.resolve({
          path: '/v1.1/account/invitations',
          body: { email: `invited-${unique()}@example.test`, site_ids: [world.site] },
        }),
      expect: { own: 201, member: 403, other: 422 },
    },
    {
      name: 'GET /v1.1/account/invitations',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/account/invitations' }),
      expect: { own: 200, member: 403, other: 200 },
    },
    {
      name: 'DELETE /v1.1/account/invitations/:id',
      method: 'DELETE',
      prepare: async () => {
        const id = await invitation();
        return {
          path: `/v1.1/account/invitations/${id}`,
          unchanged: async () => {
            const open = expectStatus(
              await admin.get<{ data: { id: string }[] }>('/v1.1/account/invitations'),
              200,
            );
            assert.ok(
              open.body.data.some((i) => i.id === id),
              'a refused call withdrew no invitation',
            );
          },
        };
      },
      expect: { own: 204, member: 403 },
    },
    ...consentEndpoints(world),
  ];
};

/** The consent to a third-party app's authorization request, given by whoever is signed in. */
const consentEndpoints = (world: SessionWorld): SessionEndpoint[] => {
  const callback = 'https://integrator.example/oauth/callback';
  /** A new app with a callback URL, and an authorization request to it, as its query and as the body's. */
  const authorizationRequest = async () => {
    const clientId = await idOf(
      world.admin.post<{ id: string }>('/v1.1/apps', {
        name: `Integrator ${unique()}`,
        callback_url: callback,
      }),
      201,
      'an OAuth app',
    );
    const verifier = randomBytes(32).toString('base64url');
    const request = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback,
      state: unique(),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    return { clientId, request, query: new URLSearchParams(request).toString() };
  };
  const everyone = { own: 200, member: 200, other: 200 };
  return [
    {
      name: 'GET /v1.1/oauth/consent',
      method: 'GET',
      prepare: async () => ({ path: `/v1.1/oauth/consent?${(await authorizationRequest()).query}` }),
      expect: everyone,
    },
    {
      name: 'POST /v1.1/oauth/consent',
      method: 'POST',
      prepare: async () => ({
        path: '/v1.1/oauth/consent',
        body: { request: (await authorizationRequest()).request, decision: 'allow' },
      }),
      expect: everyone,
    },
    {
      name: 'GET /v1.1/oauth/authorizations',
      method: 'GET',
      prepare: () => Promise.resolve({ path: '/v1.1/oauth/authorizations' }),
      expect: everyone,
    },
    {
      // Each user withdraws only what they authorised: the admin's stays for the others' calls.
      name: 'DELETE /v1.1/oauth/authorizations/:id',
      method: 'DELETE',
      prepare: async () => {
        const { clientId, request } = await authorizationRequest();
        expectStatus(await world.admin.post('/v1.1/oauth/consent', { request, decision: 'allow' }), 200);
        return {
          path: `/v1.1/oauth/authorizations/${clientId}`,
          unchanged: async () => {
            const mine = expectStatus(
              await world.admin.get<{ data: { client_id: string }[] }>('/v1.1/oauth/authorizations'),
              200,
            );
            assert.ok(
              mine.body.data.some((a) => a.client_id === clientId),
              'a refused call withdrew nothing',
            );
          },
        };
      },
      expect: { own: 204, member: 204, other: 204 },
    },
  ];
};
