import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './web-app.js';

export { expectAccessible } from './web-app.js';

/**
 * A full-page screenshot of a signer page for the documentation
 * (docs/screenshots/signer-*.png), taken when UPDATE_SCREENSHOTS=1 so that an ordinary
 * test run leaves the working tree alone.
 */
export const signerScreenshot = async (page: Page, name: string): Promise<void> => {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = join(ROOT, 'docs', 'screenshots');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `signer-${name}.png`), fullPage: true });
};
