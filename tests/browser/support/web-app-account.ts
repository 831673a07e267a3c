import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { gatewayFetch, launchChromium, openTab } from './web-app.js';

export const PASSWORD = 'web app browser test password 42';

export interface Account {
  readonly owner: string;
  readonly member: string;
  readonly production: number;
  readonly development: number;
  /** An access token of the owner's, made with the admin CLI, for the API calls a client makes. */
  readonly token: string;
}

/** What a web-app suite's tests share, filled in by the `before` hook `webAppAccount` registers. */
export interface WebAppSuite {
  system: EsignSystem;
  browser: Browser;
  account: Account;
  page: Page;
  problems: string[];
  /** The web application's address: `{gateway}/app`. */
  web: string;
}

/**
 * The whole built system as `npm start` runs it, with one account made by the admin CLI: its
 * owner (admin, on both Sites, with a Developer App's access token) and a second user on no
 * Site, the Sites "Production" and "Development" in that order, and one Chromium tab. Registers
 * its `before`, `after` and `afterEach` (no console or script error in a passed test) hooks
 * in the calling `describe`.
 */
export const webAppAccount = (label: string): WebAppSuite => {
  const suite = {} as WebAppSuite;
  before(async function () {
    // Four services, migrations and a dozen admin CLI processes.
    this.timeout(600_000);
    suite.system = await startEsignSystem({ label });
    suite.web = `${suite.system.gatewayUrl}/app`;
    const admin = (...args: string[]) => suite.system.admin(...args);
    const { account: acc } = (await admin('create-account', '--name', 'Acme web')) as {
      account: { id: string };
    };
    // One after the other: the first Site (the lowest id) is the one the pages show first.
    const site = async (name: string) =>
      ((await admin('create-site', '--account', acc.id, '--name', name)) as { site: { id: number } }).site.id;
    const production = await site('Production');
    const development = await site('Development');
    // The account's first user is its admin.
    const owner = 'owner@acme-web.example';
    const member = 'ci-bot@acme-web.example';
    await admin('create-user', '--account', acc.id, '--email', owner, '--password', PASSWORD);
    await admin('create-user', '--account', acc.id, '--email', member, '--password', PASSWORD);
    await admin('add-member', '--site', String(production), '--user', owner);
    await admin('add-member', '--site', String(development), '--user', owner);
    const { app } = (await admin('create-app', '--user', owner, '--name', 'Test client')) as {
      app: { id: string };
    };
    const { access_token: token } = (await admin('create-token', '--app', app.id)) as {
      access_token: string;
    };
    suite.account = { owner, member, production, development, token };
    suite.browser = await launchChromium();
    ({ page: suite.page, problems: suite.problems } = await openTab(suite.browser));
  });
  after(async () => {
    await suite.browser?.close();
    await suite.system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed')
      assert.deepEqual(suite.problems, [], 'no console or script errors');
  });
  return suite;
};

/** A call to the API through the gateway with `token`, its body read as JSON. */
export const gatewayCall =
  (suite: WebAppSuite) => async (token: string, method: string, path: string, body?: unknown) => {
    const { status, text } = await gatewayFetch(suite.system, token, method, path, body);
    return { status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
  };

/** Signs in on the sign-in page as `email`. */
export const signInAs = async (suite: WebAppSuite, email: string, password = PASSWORD): Promise<void> => {
  await suite.page.goto(`${suite.web}/sign-in`);
  await suite.page.getByLabel('E-mail').fill(email);
  await suite.page.getByLabel('Password').fill(password);
  await suite.page.getByRole('button', { name: 'Sign in' }).click();
};
