import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive (listed in .ci/apt-packages). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * A headless Chromium with no background traffic, for the browser tests and the
 * gateway's API reference page. playwright-core loads here only, not with every import
 * of this library.
 */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's "chromium" package (listed in .ci/apt-packages, which .ci/run installs).`,
    );
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // A sandboxed frame (the template editor's preview) painted in its page's process:
      // in a process of its own, a full-page screenshot could catch it blank.
      '--disable-features=IsolateSandboxedIframes',
    ],
  });
};
