// The OpenAPI document, generated from the io-ts codecs and the operations declared in
// libs/contracts/src/openapi. `write` refreshes docs/openapi.json (what redocly lints and
// libs/client's types are generated from); `check` fails when that file is stale.
// Run with TypeScript sources: node --conditions=source --import=tsx scripts/openapi.mjs …
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '@esign/contracts/openapi';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'docs', 'openapi.json');
const generated = `${JSON.stringify(openApiDocument(), null, 2)}\n`;

const command = process.argv[2];
if (command === 'write') {
  writeFileSync(file, generated);
  console.log(`wrote ${file}`);
} else if (command === 'check') {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // Missing counts as stale.
  }
  if (current !== generated) {
    console.error('docs/openapi.json is stale: run `npm run openapi` and commit it.');
    process.exit(1);
  }
} else {
  console.error('usage: scripts/openapi.mjs write|check');
  process.exit(64);
}
