import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/** Lints a would-be file without it existing: the layer rule does not need type information. */
const lint = async (filePath: string, code: string, ruleId = 'no-restricted-imports') => {
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
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
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
    '@esign/platform/database',
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

describe('architecture: a port answers in the one form (enforced by npm run lint)', () => {
  const port = (answer: string) =>
    lint(
      'services/notifier/src/ports/probe.ts',
      `import type * as O from 'fp-ts/lib/Option.js';\nimport type * as T from 'fp-ts/lib/Task.js';\nimport type * as TE from 'fp-ts/lib/TaskEither.js';\nexport interface Probe {\n  readonly find: (id: string) => ${answer};\n}\n`,
      'no-restricted-syntax',
    );

  for (const [answer, why] of [
    ['Promise<string>', /not a Promise/],
    ['T.Task<string>', /not a Task/],
    ['TE.TaskEither<never, string | undefined>', /not found" is Option<A>/],
  ] as const) {
    it(`refuses ${answer}`, async () => {
      const messages = await port(answer);
      assert.ok(
        messages.some((m) => why.test(m)),
        messages.join('; ') || 'nothing refused',
      );
    });
  }

  it('allows TaskEither with Option for not found, and a pure value', async () => {
    assert.deepEqual(await port("TE.TaskEither<{ readonly _tag: 'Gone' }, O.Option<string>>"), []);
    assert.deepEqual(await port('string'), []);
  });
});
