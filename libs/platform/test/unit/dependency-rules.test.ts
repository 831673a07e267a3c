import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

/**
 * The rules `npm run lint` runs (.dependency-cruiser.cjs), applied to a small made-up
 * repository written to a temporary folder: each bad import below must be refused by
 * its rule, and the good ones must pass, so a rule that silently matches nothing fails here.
 */
const config = createRequire(import.meta.url)('../../../../.dependency-cruiser.cjs') as IConfiguration;

const FILES: Record<string, string> = {
  // Allowed: the domain on io-ts, fp-ts, the contracts and itself; a use case on a port;
  // an adapter on its own folder; the composition root on everything of its service.
  'libs/contracts/src/index.ts': `export const shared = 1;\n`,
  'libs/platform/src/index.ts': `import { shared } from '../../contracts/src/index.js';\nexport const p = shared;\n`,
  'services/alpha/src/domain/rule.ts': `import * as t from 'io-ts';\nimport { pipe } from 'fp-ts/lib/function.js';\nimport { shared } from '../../../../libs/contracts/src/index.js';\nimport { helper } from './helper.js';\nexport const rule = [t, pipe, shared, helper];\n`,
  'services/alpha/src/domain/helper.ts': `export const helper = 2;\n`,
  'services/alpha/src/ports/store.ts': `export interface Store { readonly get: () => number }\n`,
  'services/alpha/src/application/use-case.ts': `import type { Store } from '../ports/store.js';\nimport { rule } from '../domain/rule.js';\nexport const useCase = (s: Store) => [s.get(), rule];\n`,
  'services/alpha/src/adapters/postgres/store.ts': `import { rows } from './rows.js';\nexport const store = { get: () => rows };\n`,
  'services/alpha/src/adapters/postgres/rows.ts': `export const rows = 3;\n`,
  // A folder inside an adapter is part of it: adapters/http/signing/ may use adapters/http/.
  'services/alpha/src/adapters/http/html.ts': `export const html = 5;\n`,
  'services/alpha/src/adapters/http/signing/page.ts': `import { html } from '../html.js';\nexport const page = html;\n`,
  'services/alpha/src/main.ts': `import { store } from './adapters/postgres/store.js';\nimport { useCase } from './application/use-case.js';\nimport { p } from '../../../libs/platform/src/index.js';\nexport const run = () => [useCase(store), p];\n`,
  // Refused, one per rule.
  'services/alpha/src/domain/impure.ts': `import Koa from 'koa';\nexport const k = Koa;\n`,
  'services/alpha/src/domain/reaches-out.ts': `import { store } from '../adapters/postgres/store.js';\nexport const s = store;\n`,
  'services/alpha/src/application/reaches-adapter.ts': `import { store } from '../adapters/postgres/store.js';\nexport const s = store;\n`,
  'services/alpha/src/adapters/http/routes.ts': `import { rows } from '../postgres/rows.js';\nexport const r = rows;\n`,
  'services/alpha/src/adapters/http/signing/reaches-out.ts': `import { rows } from '../../postgres/rows.js';\nexport const r = rows;\n`,
  'services/alpha/src/adapters/periodic.ts': `import { store } from './postgres/store.js';\nexport const s = store;\n`,
  'services/alpha/src/cross.ts': `import { b } from '../../beta/src/index.js';\nexport const x = b;\n`,
  'services/beta/src/index.ts': `export const b = 4;\n`,
  'libs/contracts/src/leaks.ts': `import { p } from '../../platform/src/index.js';\nexport const l = p;\n`,
  // A circle hidden behind a dynamic import, as db.ts → outbox.ts → http.ts → db.ts was.
  'libs/platform/src/db.ts': `export const db = async () => (await import('./outbox.js')).outbox;\n`,
  'libs/platform/src/outbox.ts': `import { http } from './http.js';\nexport const outbox = http;\n`,
  'libs/platform/src/http.ts': `import { db } from './db.js';\nexport const http = db;\n`,
};

describe('architecture: dependency rules (dependency-cruiser, enforced by npm run lint)', function () {
  this.timeout(60_000);
  let root: string;
  let result: ICruiseResult;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'depcruise-'));
    for (const [path, text] of Object.entries(FILES)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const { tsConfig: _tsConfig, ...options } = config.options ?? {};
      const reported = await cruise(['libs', 'services'], {
        ...options,
        ruleSet: { forbidden: config.forbidden ?? [] },
        validate: true,
        outputType: 'json',
      });
      result = (
        typeof reported.output === 'string' ? JSON.parse(reported.output) : reported.output
      ) as ICruiseResult;
    } finally {
      process.chdir(cwd);
    }
  });
  after(() => rm(root, { recursive: true, force: true }));

  const violations = (rule: string) =>
    result.summary.violations
      .filter((v) => v.rule.name === rule)
      .map((v) => `${v.from} → ${v.to}`)
      .sort();

  it('refuses infrastructure and outer layers in the domain, allows io-ts, fp-ts and the contracts', () => {
    assert.deepEqual(violations('domain-is-pure'), [
      'services/alpha/src/domain/impure.ts → koa',
      'services/alpha/src/domain/reaches-out.ts → services/alpha/src/adapters/postgres/store.ts',
    ]);
  });

  it('refuses an adapter in a use case', () => {
    assert.deepEqual(violations('application-not-adapters'), [
      'services/alpha/src/application/reaches-adapter.ts → services/alpha/src/adapters/postgres/store.ts',
    ]);
  });

  it('refuses a sibling adapter, also from a nested folder; allows an adapter its own folder', () => {
    assert.deepEqual(violations('no-sibling-adapter'), [
      'services/alpha/src/adapters/http/routes.ts → services/alpha/src/adapters/postgres/rows.ts',
      'services/alpha/src/adapters/http/signing/reaches-out.ts → services/alpha/src/adapters/postgres/rows.ts',
      'services/alpha/src/adapters/periodic.ts → services/alpha/src/adapters/postgres/store.ts',
    ]);
  });

  it('refuses one service importing another', () => {
    assert.deepEqual(violations('no-cross-service'), [
      'services/alpha/src/cross.ts → services/beta/src/index.ts',
    ]);
  });

  it('refuses platform code in the contracts', () => {
    assert.deepEqual(violations('contracts-stand-alone'), [
      'libs/contracts/src/leaks.ts → libs/platform/src/index.ts',
    ]);
  });

  it('refuses a circle, also one closed by a dynamic import', () => {
    const circles = result.summary.violations.filter((v) => v.rule.name === 'no-circular');
    assert.ok(circles.length > 0, 'the db → outbox → http → db circle is not reported');
    for (const circle of circles)
      assert.match(circle.from, /^libs\/platform\/src\/(db|outbox|http)\.ts$/, JSON.stringify(circle));
  });
});
