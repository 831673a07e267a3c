import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { AuthorizationServerMetadata } from '@esign/contracts';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { httpCaller, pkce, startCallbackServer } from './support/oauth-app.js';
import { expectAccessible, launchChromium, openTab, screenshot } from './support/web-app.js';

const PASSWORD = 'oauth browser test password 42';

/**
 * Issue 24 in headless Chromium against the built system: a third-party app (another
 * account's) asks a signed-in customer for access with PKCE, exchanges the code, acts on
 * the granted Site only, rotates its refresh token; a reused code and a reused refresh
 * token are refused and revoke their chain; Deny answers access_denied; revoking the app
 * in the web application stops its token. axe-core on the consent and error pages.
 */
describe('OAuth 2.0 authorization-code grant in headless Chromium (issue 24)', function () {
  this.timeout(300_000);
  let system: EsignSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let callbackServer: Awaited<ReturnType<typeof startCallbackServer>>;
  let callback: string;
  let clientId: string;
  let sales: number;
  let hr: number;
  const customer = 'ann@customer.example';
  const vendor = 'dev@crm-vendor.example';

  const call = httpCaller(() => system.gatewayUrl);

  const token = (form: Record<string, string>) =>
    call('POST', '/oauth/token', { form: { client_id: clientId, ...form } });

  const signInPage = async (email: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  const authorizeUrl = (challenge: string, state: string, overrides: Record<string, string> = {}) =>
    `${system.gatewayUrl}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...overrides,
    }).toString()}`;

  /** Allows (or denies) on the consent page and answers the callback's query. */
  const decide = async (decision: 'Allow' | 'Deny') => {
    await page.getByRole('button', { name: decision, exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(callback));
    return new URL(page.url()).searchParams;
  };

  /** A full authorization: consent for the Sales Site only, then the code exchanged. */
  const authorize = async () => {
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString('hex');
    await page.goto(authorizeUrl(challenge, state));
    await page.getByRole('checkbox', { name: /HR/ }).uncheck();
    const answer = await decide('Allow');
    assert.equal(answer.get('state'), state, 'the same state comes back');
    const code = answer.get('code')!;
    const exchanged = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback,
      code_verifier: verifier,
    });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    return {
      code,
      verifier,
      access: exchanged.body.access_token as string,
      refresh: exchanged.body.refresh_token as string,
    };
  };

  const works = async (bearer: string) =>
    (await call('GET', `/v1.1/sites/${sales}/contracts`, { bearer })).status;
  const stopsWorking = (bearer: string) =>
    eventually(async () => ((await works(bearer)) === 401 ? true : undefined), 30_000, 250);

  before(async function () {
    this.timeout(600_000);
    callbackServer = await startCallbackServer();
    callback = callbackServer.url;

    system = await startEsignSystem({ label: 'oauth_code' });
    const { account: vendorAccount } = (await system.admin('create-account', '--name', 'CRM Vendor')) as {
      account: { id: string };
    };
    await system.admin(
      'create-user',
      '--account',
      vendorAccount.id,
      '--email',
      vendor,
      '--password',
      PASSWORD,
    );
    const { account: acc } = (await system.admin('create-account', '--name', 'Customer Ltd')) as {
      account: { id: string };
    };
    const site = async (name: string) =>
      ((await system.admin('create-site', '--account', acc.id, '--name', name)) as { site: { id: number } })
        .site.id;
    sales = await site('Sales');
    hr = await site('HR');
    await system.admin('create-user', '--account', acc.id, '--email', customer, '--password', PASSWORD);
    await system.admin('add-member', '--site', String(sales), '--user', customer);
    await system.admin('add-member', '--site', String(hr), '--user', customer);
    browser = await launchChromium();
    ({ page, problems } = await openTab(browser));
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
    await callbackServer?.close();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'no console or script errors');
  });

  it('describes the server in RFC 8414 metadata', async () => {
    const metadata = await call('GET', '/.well-known/oauth-authorization-server');
    assert.equal(metadata.status, 200);
    const m = metadata.body;
    // RFC 8414 §2: issuer, authorization_endpoint, token_endpoint, response_types_supported are
    // required here (the codec requires them and the others this server states).
    assert.ok(AuthorizationServerMetadata.is(m), JSON.stringify(m));
    assert.equal(m.issuer, system.gatewayUrl.replace(/\/+$/, ''));
    const issuer = new URL(m.issuer);
    assert.equal(issuer.search + issuer.hash, '', 'an issuer has no query or fragment');
    assert.equal(m.authorization_endpoint, `${m.issuer}/oauth/authorize`);
    assert.equal(m.token_endpoint, `${m.issuer}/oauth/token`);
    assert.deepEqual(m.response_types_supported, ['code']);
    assert.equal(m.revocation_endpoint, `${m.issuer}/oauth/revoke`);
    assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
    assert.ok(m.grant_types_supported.includes('authorization_code'));
    assert.ok(m.grant_types_supported.includes('refresh_token'));
    const jwks = await fetch(m.jwks_uri);
    assert.equal(jwks.status, 200);
  });

  it('lets the app maker set a callback URL in the web application', async () => {
    await page.goto(`${system.gatewayUrl}/app/apps`);
    await signInPage(vendor);
    await page.goto(`${system.gatewayUrl}/app/apps`);
    await page.getByLabel('Name', { exact: true }).fill('CRM');
    await page.getByLabel('Callback URL (optional)').fill('http://crm.example/callback');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByText('must use https (http only for localhost)').first().waitFor();
    await page.getByLabel('Callback URL (optional)').fill(callback);
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('heading', { name: 'CRM', level: 1 }).waitFor();
    clientId = new URL(page.url()).pathname.split('/').pop()!;
    assert.equal(await page.getByLabel('Callback URL', { exact: true }).inputValue(), callback);
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it('shows a foreign callback on our own page, never sending the browser there', async () => {
    const { challenge } = pkce();
    await page.goto(authorizeUrl(challenge, 'x', { redirect_uri: 'https://evil.example/cb' }));
    assert.equal(new URL(page.url()).pathname, '/app/sign-in', 'signed out: sign in first');
    await signInPage(customer);
    await page.getByRole('heading', { name: "This app's request cannot be answered" }).waitFor();
    assert.ok(page.url().startsWith(system.gatewayUrl));
    assert.match(
      (await page.getByRole('alert').textContent()) ?? '',
      /redirect_uri is not the app's callback URL/,
    );
    await expectAccessible(page, 'OAuth error page');
    await screenshot(page, 'oauth-error');
  });

  it('asks for consent naming the app, its maker and the Sites; the code buys tokens that reach the granted Site only', async () => {
    const { verifier, challenge } = pkce();
    await page.goto(authorizeUrl(challenge, 'state-1'));
    await page.getByRole('heading', { name: 'Allow CRM to act for you?' }).waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /CRM Vendor/);
    await expectAccessible(page, 'OAuth consent page');
    await screenshot(page, 'oauth-consent');
    await page.getByRole('checkbox', { name: /HR/ }).uncheck();
    const answer = await decide('Allow');
    assert.equal(answer.get('state'), 'state-1');
    const code = answer.get('code')!;
    assert.ok(code.length > 20);

    const wrongVerifier = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback,
      code_verifier: pkce().verifier,
    });
    assert.equal(wrongVerifier.status, 400);
    assert.equal(wrongVerifier.body.error, 'invalid_grant');
    const exchanged = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback,
      code_verifier: verifier,
    });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    assert.equal(exchanged.body.token_type, 'Bearer');
    const access = exchanged.body.access_token as string;
    const refresh = exchanged.body.refresh_token as string;

    // A Request on the granted Site; the other Site is as absent as an unknown one.
    const template = await call('POST', `/v1.1/sites/${sales}/contracts`, {
      bearer: access,
      json: {
        type: 'html',
        name: 'CRM agreement',
        html: '<p>Agreed by {{name}}.</p>',
        fields: [{ name: 'signature', type: 'signature' }],
      },
    });
    assert.equal(template.status, 201, JSON.stringify(template.body));
    const contract = template.body.id as number;
    assert.equal((await call('POST', `/v1.1/contracts/${contract}/publish`, { bearer: access })).status, 200);
    const request = await call('POST', `/v1.1/sites/${sales}/requests`, {
      bearer: access,
      json: {
        contracts: [contract],
        signers: [{ signer_id: 'bob@customer.example', send_to: { email: true } }],
        render_data: { name: 'Bob' },
      },
    });
    assert.equal(request.status, 201, JSON.stringify(request.body));
    assert.equal((await call('GET', `/v1.1/sites/${hr}/requests`, { bearer: access })).status, 404);

    // The customer sees the token in their list under the app's name.
    const session = await call('POST', '/v1.1/sessions', { json: { email: customer, password: PASSWORD } });
    const list = await call('GET', '/v1.1/tokens', { bearer: session.body.session_token as string });
    const mine = (list.body.data as Array<{ name: string; origin: string; site_ids: number[] }>).filter(
      (t) => t.origin === 'authorization_code',
    );
    assert.deepEqual(
      mine.map((t) => [t.name, t.site_ids]),
      [['CRM', [sales]]],
    );

    // The refresh token rotates; the old one presented again revokes the whole chain.
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: refresh });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.notEqual(rotated.body.refresh_token, refresh);
    const newAccess = rotated.body.access_token as string;
    assert.equal(await works(newAccess), 200);
    const replay = await token({ grant_type: 'refresh_token', refresh_token: refresh });
    assert.equal(replay.status, 400);
    assert.equal(replay.body.error, 'invalid_grant');
    await stopsWorking(newAccess);
    await stopsWorking(access);
    const afterReplay = await token({
      grant_type: 'refresh_token',
      refresh_token: rotated.body.refresh_token as string,
    });
    assert.equal(
      afterReplay.body.error,
      'invalid_grant',
      'the newest refresh token of the chain is dead too',
    );
  });

  it('refuses a code used twice and revokes what the first use gave', async () => {
    const first = await authorize();
    assert.equal(await works(first.access), 200);
    const again = await token({
      grant_type: 'authorization_code',
      code: first.code,
      redirect_uri: callback,
      code_verifier: first.verifier,
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
    await stopsWorking(first.access);
    assert.equal(
      (await token({ grant_type: 'refresh_token', refresh_token: first.refresh })).body.error,
      'invalid_grant',
    );
  });

  it('answers Deny with access_denied and the state', async () => {
    const { challenge } = pkce();
    await page.goto(authorizeUrl(challenge, 'state-deny'));
    const answer = await decide('Deny');
    assert.equal(answer.get('error'), 'access_denied');
    assert.equal(answer.get('state'), 'state-deny');
    assert.equal(answer.get('code'), null);
  });

  it('lists the authorised app in the web application, whose Revoke stops its token', async () => {
    const granted = await authorize();
    assert.equal(await works(granted.access), 200);
    await page.goto(`${system.gatewayUrl}/app/authorized-apps`);
    const row = page.getByRole('row', { name: /CRM/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /CRM Vendor/);
    assert.match((await row.textContent()) ?? '', /Sales/);
    await expectAccessible(page, 'authorised apps');
    await screenshot(page, 'oauth-authorized-apps');
    await page.getByRole('button', { name: 'Revoke CRM' }).click();
    await page.getByText('You have not authorised any app.').waitFor();
    await stopsWorking(granted.access);
    assert.equal(
      (await token({ grant_type: 'refresh_token', refresh_token: granted.refresh })).body.error,
      'invalid_grant',
    );
  });
});
