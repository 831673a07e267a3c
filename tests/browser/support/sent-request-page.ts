import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startEsignSystem, type EsignSystem } from '@esign/testing';
import { ownerWithSentRequest, type GatewayJson } from './sent-request.js';
import { launchChromium, signedInTab } from './web-app.js';

/** What the tests of one sent Request's page work with, once the suite's `before` has run. */
export interface SentRequestPage {
  readonly system: EsignSystem;
  readonly browser: Browser;
  /** The owner's tab, signed in. */
  readonly page: Page;
  /** The Request's id, its page's URL, and the owner's API. */
  readonly id: string;
  readonly url: string;
  readonly json: GatewayJson;
}

/**
 * The hooks every test of one sent Request's page shares, registered in the calling
 * `describe`: the whole built system, an owner with a sent Request (ownerWithSentRequest),
 * Chromium signed in as them; after each passed test, no console or script error; at the
 * end, the browser and the system stopped, whatever was started. `prepare` runs on the
 * started system before the Request is made (an SMTP refusal, say).
 */
export const sentRequestPage = (options: {
  readonly label: string;
  readonly account: string;
  readonly owner: string;
  readonly password: string;
  readonly signer: string;
  readonly request?: Readonly<Record<string, unknown>>;
  readonly prepare?: (system: EsignSystem) => void;
}): SentRequestPage => {
  let system: EsignSystem | undefined;
  let browser: Browser | undefined;
  let ready: (SentRequestPage & { readonly problems: string[] }) | undefined;
  const state = () => {
    if (ready === undefined) throw new Error('the sent Request page is used before its before hook ran');
    return ready;
  };

  before(async function () {
    this.timeout(600_000);
    system = await startEsignSystem({ label: options.label });
    options.prepare?.(system);
    const sent = await ownerWithSentRequest(system, options);
    browser = await launchChromium();
    const { page, problems } = await signedInTab(browser, system.gatewayUrl, options.owner, options.password);
    ready = { system, browser, page, problems, ...sent };
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed')
      assert.deepEqual(state().problems, [], 'no console or script errors');
  });

  return {
    get system() {
      return state().system;
    },
    get browser() {
      return state().browser;
    },
    get page() {
      return state().page;
    },
    get id() {
      return state().id;
    },
    get url() {
      return state().url;
    },
    get json() {
      return state().json;
    },
  };
};
