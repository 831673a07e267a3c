import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type EsignSystem } from '@esign/testing';
import type { GatewayJson } from './sent-request.js';

export { CHROMIUM, launchChromium } from '@esign/testing';

/** The accept link of the first invitation e-mailed to `to` after the `after`th mail the test SMTP server took. */
export const invitationLinkMailedTo = async (system: EsignSystem, to: string, after = 0): Promise<string> => {
  const mail = await eventually(
    () =>
      Promise.resolve(
        system.smtp.received
          .slice(after)
          .find((m) => m.to.includes(to) && /\/app\/accept-invitation\?/.test(m.mail.text ?? '')),
      ),
    60_000,
  );
  const link = /http\S+\/app\/accept-invitation\?token=inv_[A-Za-z0-9_-]+/.exec(mail.mail.text ?? '');
  assert.ok(link, mail.mail.text);
  return link[0];
};

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** A browser tab that records every console error and script error (a CSP violation shows there). */
export const openTab = async (
  browser: Browser,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> => {
  const context = await browser.newContext({
    viewport,
    ...(viewport === PHONE ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => undefined);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // A page answered 401/404/422 on purpose shows as a failed load; CSP and script errors do not.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { context, page, problems };
};

/**
 * axe-core's WCAG 2.0–2.2 A and AA rules over the whole page: no violation may be left.
 * `sandboxedFrames` names iframes whose sandbox forbids scripts (the template editor's
 * preview): axe cannot run inside such a frame (its timers never fire there, so the run
 * never ends), so the frame is left out and the caller checks what it can of it itself.
 */
export const expectAccessible = async (
  page: Page,
  where: string,
  sandboxedFrames: readonly string[] = [],
): Promise<void> => {
  let builder = new AxeBuilder({ page }).withTags([
    'wcag2a',
    'wcag2aa',
    'wcag21a',
    'wcag21aa',
    'wcag22aa',
    'best-practice',
  ]);
  for (const selector of sandboxedFrames) builder = builder.exclude(selector);
  const result = await builder.analyze();
  assert.deepEqual(
    result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `axe-core on ${where}`,
  );
};

/**
 * A full-page screenshot for the documentation (docs/screenshots/web-app-*.png), taken
 * when WEB_SCREENSHOTS=1 so that an ordinary test run leaves the working tree alone.
 */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  if (process.env.WEB_SCREENSHOTS !== '1') return;
  const dir = join(ROOT, 'docs', 'screenshots');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `web-app-${name}.png`), fullPage: true });
};

/**
 * An account with a Production Site, its owner (signing in with `password`) on it, and
 * one published HTML template made through the API with an access token of the owner's:
 * what a page that makes Requests needs before the browser opens. `json` calls the API
 * with that token.
 */
export const ownerWithTemplate = async (
  system: EsignSystem,
  input: {
    readonly account: string;
    readonly owner: string;
    readonly password: string;
    readonly template: { readonly name: string; readonly html: string; readonly fields?: readonly unknown[] };
  },
): Promise<{ readonly site: number; readonly template: number; readonly json: GatewayJson }> => {
  const { account } = (await system.admin('create-account', '--name', input.account)) as {
    account: { id: string };
  };
  const created = (await system.admin('create-site', '--account', account.id, '--name', 'Production')) as {
    site: { id: number };
  };
  const site = created.site.id;
  await system.admin(
    'create-user',
    '--account',
    account.id,
    '--email',
    input.owner,
    '--password',
    input.password,
  );
  await system.admin('add-member', '--site', String(site), '--user', input.owner);
  const json = await userApi(system, input.owner);
  const contract = await json(
    `/v1.1/sites/${site}/contracts`,
    'POST',
    { type: 'html', ...input.template },
    201,
  );
  const template = contract.id as number;
  await json(`/v1.1/contracts/${template}/publish`, 'POST');
  return { site, template, json };
};

/** One call to the API through the gateway with a bearer `token`: its status and body as text. */
export const gatewayFetch = async (
  system: EsignSystem,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ readonly status: number; readonly text: string }> => {
  const response = await fetch(`${system.gatewayUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
};

/** The gateway's JSON API (GatewayJson) with an access token of `user`'s, from a new app of theirs. */
export const userApi = async (system: EsignSystem, user: string, appName = 'Setup'): Promise<GatewayJson> => {
  const { app } = (await system.admin('create-app', '--user', user, '--name', appName)) as {
    app: { id: string };
  };
  const { access_token: token } = (await system.admin('create-token', '--app', app.id)) as {
    access_token: string;
  };
  return async (path, method = 'GET', body, status = 200) => {
    const answer = await gatewayFetch(system, token, method, path, body);
    assert.equal(answer.status, status, answer.text);
    return JSON.parse(answer.text) as Record<string, unknown>;
  };
};

/** A tab (openTab) signed in to the web application as `email`, showing the Requests page. */
export const signedInTab = async (
  browser: Browser,
  gatewayUrl: string,
  email: string,
  password: string,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> => {
  const tab = await openTab(browser);
  await tab.page.goto(`${gatewayUrl}/app/sign-in`);
  await tab.page.getByLabel('E-mail').fill(email);
  await tab.page.getByLabel('Password', { exact: true }).fill(password);
  await tab.page.getByRole('button', { name: 'Sign in' }).click();
  await tab.page.getByRole('heading', { name: /^Requests/ }).waitFor();
  return tab;
};
