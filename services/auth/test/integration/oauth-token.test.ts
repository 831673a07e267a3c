import assert from 'node:assert/strict';
import * as O from 'fp-ts/lib/Option.js';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { OAuthErrorBody, OAuthTokenResponse } from '@esign/contracts';
import { issueClientSecret } from '../../src/application/client-secret.js';
import { setApiAccess } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { setUserDisabled } from '../../src/application/users.js';
import { seedAccount, startHarness, type Harness } from '../support/harness.js';
import { valueOf } from '../support/port-task.js';

/** RFC 6749 §4.4 client credentials at POST /oauth/token, with §5.2 errors. */
describe('auth: OAuth 2 client-credentials grant', () => {
  let h: Harness;
  let clientId: string;
  let clientSecret: string;
  let seeded: Awaited<ReturnType<typeof seedAccount>>;

  before(async () => {
    h = await startHarness('auth_oauth');
    seeded = await seedAccount(h.deps, {
      sites: ['Production'],
      users: { 'machine@acme.test': ['Production'] },
    });
    const app = await createApp(h.deps)({
      userId: seeded.users.get('machine@acme.test')!.id,
      name: 'Machine',
    })();
    assert.ok(app._tag === 'Right');
    clientId = app.right.id;
    clientSecret = (await valueOf(issueClientSecret(h.deps)(clientId))).clientSecret;
  });
  after(() => h.close());

  const token = () => request(h.callback).post('/oauth/token');
  const oauthError = (response: request.Response, status: number, error: string) => {
    assert.equal(response.status, status, JSON.stringify(response.body));
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.ok(OAuthErrorBody.is(response.body), JSON.stringify(response.body));
    assert.equal(response.body.error, error);
    assert.equal(response.headers['cache-control'], 'no-store');
  };

  it('issues a one-hour token to HTTP Basic client authentication with a form body', async () => {
    const response = await token()
      .auth(clientId, clientSecret)
      .type('form')
      .send('grant_type=client_credentials')
      .expect(200);
    assert.ok(OAuthTokenResponse.is(response.body));
    assert.equal(response.body.token_type, 'Bearer');
    assert.equal(response.body.expires_in, 3600);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers.pragma, 'no-cache');
    const claims = decodeJwt(response.body.access_token);
    assert.equal(claims.client_id, clientId);
    assert.equal(claims.sub, seeded.users.get('machine@acme.test')!.id);
  });

  it('accepts the credentials in the body, form-encoded or JSON', async () => {
    await token()
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })
      .expect(200);
    await token()
      .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })
      .expect(200);
  });

  it('decodes form-encoded Basic credentials (RFC 6749 §2.3.1)', async () => {
    const encoded = Buffer.from(
      `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`,
    ).toString('base64');
    await token()
      .set('Authorization', `Basic ${encoded}`)
      .type('form')
      .send('grant_type=client_credentials')
      .expect(200);
  });

  it('answers invalid_client (401, WWW-Authenticate) for a wrong secret, an unknown client, or none', async () => {
    const wrong = await token()
      .auth(clientId, 'ecs_wrong')
      .type('form')
      .send('grant_type=client_credentials');
    oauthError(wrong, 401, 'invalid_client');
    assert.match(String(wrong.headers['www-authenticate']), /^Basic realm=/);
    oauthError(
      await token()
        .auth('00000000-0000-4000-8000-000000000000', clientSecret)
        .type('form')
        .send('grant_type=client_credentials'),
      401,
      'invalid_client',
    );
    oauthError(
      await token().auth('not-a-uuid', 'x').type('form').send('grant_type=client_credentials'),
      401,
      'invalid_client',
    );
    oauthError(await token().type('form').send('grant_type=client_credentials'), 401, 'invalid_client');
    oauthError(
      await token().type('form').send({ grant_type: 'client_credentials', client_id: clientId }),
      401,
      'invalid_client',
    );
    oauthError(
      await token()
        .set('Authorization', 'Bearer something')
        .type('form')
        .send('grant_type=client_credentials'),
      401,
      'invalid_client',
    );
  });

  it('answers invalid_request for a missing grant type, two authentication methods, repeated parameters, or a bad body', async () => {
    oauthError(await token().auth(clientId, clientSecret).type('form').send(''), 400, 'invalid_request');
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      400,
      'invalid_request',
    );
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .type('form')
        .send('grant_type=client_credentials&grant_type=client_credentials'),
      400,
      'invalid_request',
    );
    // A token request is a few hundred bytes: one past 16 KB is not read to its end.
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .type('form')
        .send(`grant_type=client_credentials&scope=${'x'.repeat(20_000)}`),
      400,
      'invalid_request',
    );
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .set('Content-Type', 'text/plain')
        .send('grant_type=client_credentials'),
      400,
      'invalid_request',
    );
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .set('Content-Type', 'application/json')
        .send('{"grant_type":'),
      400,
      'invalid_request',
    );
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .send({ grant_type: ['client_credentials'] }),
      400,
      'invalid_request',
    );
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .type('form')
        .send(`grant_type=client_credentials&padding=${'x'.repeat(20_000)}`),
      400,
      'invalid_request',
    );
  });

  it('answers unsupported_grant_type and invalid_scope', async () => {
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .type('form')
        .send('grant_type=password&username=a&password=b'),
      400,
      'unsupported_grant_type',
    );
    oauthError(
      await token()
        .auth(clientId, clientSecret)
        .type('form')
        .send('grant_type=client_credentials&scope=admin'),
      400,
      'invalid_scope',
    );
    // An empty scope asks for nothing in particular.
    await token()
      .auth(clientId, clientSecret)
      .type('form')
      .send('grant_type=client_credentials&scope=')
      .expect(200);
  });

  it('answers unauthorized_client when the owner is disabled or the account has no API access', async () => {
    const owner = seeded.users.get('machine@acme.test')!;
    await setUserDisabled(h.deps)({ userId: owner.id, disabled: true })();
    try {
      oauthError(
        await token().auth(clientId, clientSecret).type('form').send('grant_type=client_credentials'),
        400,
        'unauthorized_client',
      );
    } finally {
      await setUserDisabled(h.deps)({ userId: owner.id, disabled: false })();
    }
    await setApiAccess(h.deps)({ accountId: seeded.account.id, enabled: false })();
    try {
      oauthError(
        await token().auth(clientId, clientSecret).type('form').send('grant_type=client_credentials'),
        400,
        'unauthorized_client',
      );
    } finally {
      await setApiAccess(h.deps)({ accountId: seeded.account.id, enabled: true })();
    }
  });

  it('records each issued token, so it can be listed and revoked like any other', async () => {
    const response = await token()
      .auth(clientId, clientSecret)
      .type('form')
      .send('grant_type=client_credentials')
      .expect(200);
    const jti = decodeJwt(response.body.access_token as string).jti!;
    const record = await valueOf(h.deps.tokens.find(jti));
    assert.equal(O.toUndefined(record)?.origin, 'client_credentials');
  });
});
