import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { ACCOUNT_VIEW, CURRENT, page, SESSION, type appWith } from './fake-api.js';

export { page };

export const AT = '2030-01-01T00:00:00.000Z';
const IN_A_WEEK = '2030-01-08T00:00:00.000Z';
export const INVITATION_ID = '5d6f0c1e-3b7a-4a39-9d1e-2f4c8a7b6e10';

/** An open invitation as the API lists it; `admin`: accepting it makes an admin (ADR 3090). */
export const invitation = (email: string, siteIds: number[] = [3], admin = false) => ({
  id: INVITATION_ID,
  email,
  site_ids: siteIds,
  admin,
  invited_by: 'owner@acme.test',
  created_at: AT,
  expires_at: IN_A_WEEK,
});

/**
 * What an account admin's Users page reads: two Sites, two users (the admin owner@acme.test,
 * who is signed in, and a disabled member), one open invitation.
 */
export const ACCOUNT = {
  'GET /v1.1/sessions/current': CURRENT,
  'GET /v1.1/account': ACCOUNT_VIEW,
  'GET /v1.1/account/users?per_page=100': page([
    { id: 'u1', email: 'owner@acme.test', disabled_at: null, admin: true, site_ids: [3, 4] },
    { id: 'u2', email: 'gone@acme.test', disabled_at: AT, admin: false, site_ids: [] },
  ]),
  'GET /v1.1/account/sites?per_page=100': page([
    { id: 3, name: 'Production', created_at: AT, default_locale: null, members: [] },
    { id: 4, name: 'Development', created_at: AT, default_locale: null, members: [] },
  ]),
  'GET /v1.1/account/invitations?per_page=100': page([invitation('ann@example.com', [4])]),
};

export const COOKIE = `esign_session=${SESSION}`;

/** A form posted by the signed-in admin, with their session's anti-forgery token. */
export const postAsAdmin = (app: ReturnType<typeof appWith>, path: string, fields: Record<string, string>) =>
  request(app.callback)
    .post(path)
    .set('Cookie', COOKIE)
    .type('form')
    .send({ _csrf: csrfTokenOf(SESSION), ...fields });
