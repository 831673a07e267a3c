// @ts-check
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** Infrastructure that the pure domain core must never reach for. */
const forbiddenInDomain = [
  'koa',
  '@koa/*',
  'pg',
  'pg-*',
  'slonik',
  '@slonik/*',
  'amqplib',
  'nodemailer',
  'twilio',
  'jose',
  'undici',
  '@esign/platform',
  '@esign/platform/*',
  '@esign/testing',
];

const portForm = 'A port answers TaskEither<E, A> (docs/ARCHITECTURE.md, "Ports")';
/** What a port must not answer: checked on every file under a service's src/ports/. */
const portFormRules = [
  { selector: "TSTypeReference[typeName.name='Promise']", message: `${portForm}, not a Promise.` },
  { selector: "TSTypeReference[typeName.name='Task']", message: `${portForm}, not a Task.` },
  { selector: "TSTypeReference[typeName.right.name='Task']", message: `${portForm}, not a Task.` },
  {
    selector:
      "TSTypeReference[typeName.right.name='TaskEither'] > TSTypeParameterInstantiation > TSUnionType > TSUndefinedKeyword",
    message: `${portForm}: "not found" is Option<A>, not undefined.`,
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs', 'scripts/*.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { project: false, projectService: false } },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      'no-console': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['**/test/**/*.ts', 'libs/testing/**/*.ts', 'tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['**/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: forbiddenInDomain,
              message: 'The domain is pure: no infrastructure imports (see docs/ARCHITECTURE.md).',
            },
            {
              group: ['**/adapters/**', '**/adapters', '**/application/**', '**/ports/**'],
              message: 'Dependencies point inward: the domain imports nothing from outer layers.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one form of a port (docs/ARCHITECTURE.md, "Ports"): I/O answers TaskEither<E, A>,
    // "not found" is Option<A>, an outage rejects.
    files: ['services/*/src/ports/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...portFormRules],
    },
  },
  prettier,
);
