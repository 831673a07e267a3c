import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/** Lints a would-be file without it existing: the layer rule does not need type information. */
const lint = async (filePath: string, code: string) => {
  const eslint = new ESLint({
    overrideConfig: [
      {
        files: ['**/*.ts'],
        ...tseslint.configs.disableTypeChecked,
        languageOptions: { parserOptions: { project: false, projectService: false } },
      },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('architecture: the domain stays pure (enforced by npm run lint)', () => {
  for (const module of [
    'pg',
    'koa',
    '@koa/router',
    'slonik',
    'amqplib',
    'nodemailer',
    'twilio',
    'jose',
    '@esign/platform',
  ]) {
    it(`refuses ${module} under src/domain/`, async () => {
      const messages = await lint(
        'services/requests/src/domain/probe.ts',
        `import x from '${module}';\nexport { x };\n`,
      );
      assert.equal(messages.length, 1, `expected ${module} to be refused`);
    });
  }

  it('refuses adapters under src/domain/', async () => {
    const messages = await lint(
      'services/auth/src/domain/probe.ts',
      `import { x } from '../adapters/postgres/x.js';\nexport { x };\n`,
    );
    assert.equal(messages.length, 1);
  });

  it('allows io-ts, fp-ts and the contracts in the domain, and pg in adapters', async () => {
    assert.deepEqual(
      await lint(
        'services/requests/src/domain/probe.ts',
        `import * as t from 'io-ts';\nimport { pipe } from 'fp-ts/lib/function.js';\nimport { Problem } from '@esign/contracts';\nexport { t, pipe, Problem };\n`,
      ),
      [],
    );
    assert.deepEqual(
      await lint('services/requests/src/adapters/probe.ts', `import pg from 'pg';\nexport { pg };\n`),
      [],
    );
  });
});
