import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { Browser, Frame, Page } from 'playwright-core';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { signerScreenshot } from './support/signer-pages.js';
import { hostServer } from './support/host-page.js';
import { expectAccessible, launchChromium, openTab, screenshot } from './support/web-app.js';

const PASSWORD = 'embedded signing browser test password 42';

/** What the host page heard from the frame, as the helper reported it. */
interface Heard {
  readonly event: string;
  readonly code?: string;
  readonly request_id: string;
  readonly signer_id: string;
}

/**
 * Embedded signing end to end (issue 23 part 1, ADR 2300): the four services as built, a
 * Developer App whose allowed_frame_origins are set through the API, and two host pages
 * on other loopback ports, one allowed, one not.
 */
describe('embedded signing in headless Chromium: allowed host signs, other origins and reused URLs are refused', function () {
  this.timeout(120_000);
  let system: EsignSystem;
  let browser: Browser;
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  let token: string;
  let site: number;
  let appId: string;
  let contract: number;

  const api = async (path: string, init: { method?: string; body?: unknown; bearer?: string } = {}) => {
    const res = await fetch(`${system.gatewayUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.bearer ?? token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: (await res.json()) as Record<string, unknown>,
    };
  };

  /** A sent Request for one signer who is told nothing: the host application signs them in. */
  const sentRequest = async (signer: string): Promise<string> => {
    const created = await api(`/v1.1/sites/${site}/requests`, {
      method: 'POST',
      body: {
        contracts: [contract],
        signers: [{ signer_id: signer, send_to: { email: false } }],
        fields: [{ name: 'signature', assigned_to: signer }],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const sent = await api(`/v1.1/requests/${id}/send`, { method: 'POST' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    return id;
  };

  const embeddedUrl = async (requestId: string, signer: string, parentOrigin?: string): Promise<string> => {
    const answer = await api(
      `/v1.1/requests/${requestId}/signers/${encodeURIComponent(signer)}/embedded_url`,
      {
        method: 'POST',
        body: parentOrigin === undefined ? {} : { parent_origin: parentOrigin },
      },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.embedded_url as string;
  };

  const heard = (page: Page): Promise<Heard[]> =>
    page.evaluate(() => (globalThis as unknown as { heard?: Heard[] }).heard ?? []);

  const signingFrame = (page: Page): Promise<Frame> =>
    eventually(() => Promise.resolve(page.frames().find((f) => f.url().includes('/sign?'))), 30_000);

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: 'embedded_signing' });
    [allowed, other] = await Promise.all([hostServer(), hostServer()]);
    const { account } = (await system.admin('create-account', '--name', 'Embedding client')) as {
      account: { id: string };
    };
    const { site: created } = (await system.admin(
      'create-site',
      '--account',
      account.id,
      '--name',
      'Harbour Lettings',
    )) as {
      site: { id: number };
    };
    site = created.id;
    const email = 'dev@embedding-client.example';
    await system.admin('create-user', '--account', account.id, '--email', email, '--password', PASSWORD);
    await system.admin('add-member', '--site', String(site), '--user', email);
    const { app } = (await system.admin('create-app', '--user', email, '--name', 'Lettings portal')) as {
      app: { id: string };
    };
    appId = app.id;
    ({ access_token: token } = (await system.admin('create-token', '--app', app.id)) as {
      access_token: string;
    });
    const published = await api(`/v1.1/sites/${site}/contracts`, {
      method: 'POST',
      body: {
        type: 'html',
        name: 'Tenancy agreement',
        html: '<h1>Tenancy agreement</h1><p>The tenant rents the flat at 4 Quay Street from the first of next month.</p>',
        fields: [{ name: 'signature', type: 'signature' }],
      },
    });
    assert.equal(published.status, 201, JSON.stringify(published.body));
    contract = published.body.id as number;
    assert.equal((await api(`/v1.1/contracts/${contract}/publish`, { method: 'POST' })).status, 200);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await Promise.all([allowed, other].map((h) => h && new Promise((resolve) => h.server.close(resolve))));
    await system?.stop();
  });

  it('refuses an embedded URL until the app allows an origin, naming parent_origin', async () => {
    const requestId = await sentRequest('no-origins@tenant.example');
    const refused = await api(
      `/v1.1/requests/${requestId}/signers/no-origins%40tenant.example/embedded_url`,
      {
        method: 'POST',
        body: {},
      },
    );
    assert.equal(refused.status, 422);
    assert.equal(refused.type, 'application/problem+json');
    assert.deepEqual(
      (refused.body.errors as { path: string }[]).map((e) => e.path),
      ['parent_origin'],
    );
  });

  it('sets the app’s allowed_frame_origins in the web application, naming a bad line', async () => {
    const { context, page, problems } = await openTab(browser);
    try {
      await page.goto(`${system.gatewayUrl}/app/sign-in`);
      await page.getByLabel('E-mail').fill('dev@embedding-client.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/app\/requests/);
      await page.goto(`${system.gatewayUrl}/app/apps/${appId}`);
      await page.getByRole('link', { name: 'Embedded signing: allowed frame origins' }).click();
      await page.getByRole('heading', { level: 1, name: 'Embedded signing' }).waitFor();
      const field = page.getByLabel('Allowed frame origins');
      await field.fill(`${allowed.origin}\n${allowed.origin}/portal`);
      await page.getByRole('button', { name: 'Save origins' }).click();
      await page.locator('#frame-origins-error').waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.match(
        (await page.locator('#frame-origins-error').textContent()) ?? '',
        /^Line 2: must be an origin only/,
      );
      await expectAccessible(page, 'frame origins refused');
      await field.fill(allowed.origin);
      await page.getByRole('button', { name: 'Save origins' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      assert.equal((await field.inputValue()).trim(), allowed.origin);
      await expectAccessible(page, 'frame origins saved');
      await screenshot(page, 'app-frame-origins');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('reads and refuses allowed_frame_origins through the API (session), naming the item', async () => {
    const signedIn = await api('/v1.1/sessions', {
      method: 'POST',
      body: { email: 'dev@embedding-client.example', password: PASSWORD },
    });
    assert.equal(signedIn.status, 201, JSON.stringify(signedIn.body));
    const session = signedIn.body.session_token as string;
    const read = await api(`/v1.1/apps/${appId}/frame_origins`, { bearer: session });
    assert.deepEqual(read.body, { app_id: appId, allowed_frame_origins: [allowed.origin] });
    const bad = await api(`/v1.1/apps/${appId}/frame_origins`, {
      method: 'PUT',
      bearer: session,
      body: { allowed_frame_origins: [`${allowed.origin}/portal`] },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.type, 'application/problem+json');
    assert.equal((bad.body.errors as { path: string }[])[0]?.path, 'allowed_frame_origins[0]');
    // The gateway caches introspection for a few seconds: the token sees the list once it expires.
    const requestId = await sentRequest('probe@tenant.example');
    await eventually(async () => {
      const answer = await api(`/v1.1/requests/${requestId}/signers/probe%40tenant.example/embedded_url`, {
        method: 'POST',
        body: {},
      });
      return answer.status === 200 ? answer : undefined;
    }, 30_000);
  });

  it('signs inside the allowed host page, which hears ready, viewed and signed; the page is accessible', async () => {
    const signer = 'tenant@harbour.example';
    const requestId = await sentRequest(signer);
    const url = await embeddedUrl(requestId, signer, allowed.origin);
    const { context, page, problems } = await openTab(browser);
    try {
      await page.goto(`${allowed.origin}/?url=${encodeURIComponent(url)}`);
      const frame = await signingFrame(page);
      await frame.getByLabel('Type your full name').fill('Tess Tenant');
      await eventually(
        async () => ((await heard(page)).some((m) => m.event === 'viewed') ? true : undefined),
        30_000,
      );
      await expectAccessible(page, 'the host page with the embedded signing page');
      await signerScreenshot(page, 'embedded');
      await frame.getByLabel(/I have reviewed the document above/).check();
      await frame.getByRole('button', { name: 'Sign', exact: true }).click();
      const events = await eventually(async () => {
        const all = await heard(page);
        return all.some((m) => m.event === 'signed') ? all : undefined;
      }, 30_000);
      assert.deepEqual(
        events.map((m) => m.event),
        ['ready', 'viewed', 'ready', 'signed'],
      );
      assert.ok(events.every((m) => m.request_id === requestId && m.signer_id === signer));
      const view = await api(`/v1.1/requests/${requestId}`);
      assert.equal((view.body.signers as { state: string }[])[0]?.state, 'signed');
      await expectAccessible(page, 'the embedded thank-you page');
      assert.deepEqual(problems, []);

      // The same URL a second time: a clear page in the frame, and `error` in the host.
      const again = await context.newPage();
      await again.goto(`${allowed.origin}/?url=${encodeURIComponent(url)}`);
      const refused = await eventually(async () => {
        const all = await heard(again);
        return all.find((m) => m.event === 'error');
      }, 30_000);
      assert.equal(refused.code, 'link_used');
      const frame2 = again.frames().find((f) => f.url().includes('/sign/embedded'));
      assert.ok(frame2);
      assert.equal(await frame2.locator('h1').textContent(), 'This signing link was already used');
    } finally {
      await context.close();
    }
  });

  it('is refused by the browser when another origin frames it (CSP frame-ancestors)', async () => {
    const signer = 'elsewhere@harbour.example';
    const requestId = await sentRequest(signer);
    const url = await embeddedUrl(requestId, signer);
    const { context, page } = await openTab(browser);
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('frame-ancestors')) blocked.push(m.text());
    });
    try {
      await page.goto(`${other.origin}/?url=${encodeURIComponent(url)}`);
      await eventually(() => Promise.resolve(blocked.length > 0 ? true : undefined), 30_000);
      assert.match(blocked[0]!, /frame-ancestors/);
      assert.ok(blocked[0]!.includes(allowed.origin), blocked[0]);
      assert.deepEqual(await heard(page), [], 'the refused frame says nothing to the host');
      // The header itself, as the frame was answered: the app's origin and nothing else.
      const res = await fetch(url.replace('/sign/embedded', '/sign/embedded'), { redirect: 'manual' });
      assert.equal(res.status, 410, 'the blocked load opened it (and so used it)');
      assert.match(
        res.headers.get('content-security-policy') ?? '',
        new RegExp(`frame-ancestors ${allowed.origin};`),
      );
    } finally {
      await context.close();
    }
  });
});
