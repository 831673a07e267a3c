// The layer rules of docs/ARCHITECTURE.md ("Rules"), checked by `npm run lint`
// (`depcruise --config .dependency-cruiser.cjs libs services`). Paths are relative to the
// repository root; `$1`, `$2` in a `to` refer to the groups captured by its `from`.
// libs/platform/test/unit/dependency-rules.test.ts shows each rule refusing a bad import.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle makes modules load in an order nobody chose; a dynamic import() hides it from the ' +
        'reader but not from this rule.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'The domain is plain data and pure functions: it imports only itself, @esign/contracts, ' +
        "fp-ts, io-ts, ibantools (pure functions over SWIFT's IBAN registry, ADR 3770) and " +
        "jsvat (pure functions over European countries' VAT number rules, ADR 3830).",
      from: { path: '^((?:services|libs)/[^/]+)/src/domain/' },
      to: {
        pathNot: [
          '^$1/src/domain/',
          '^libs/contracts/src/',
          '(^|/)node_modules/(fp-ts|io-ts|ibantools|jsvat)/',
          '^(fp-ts|io-ts|ibantools|jsvat)(/|$)',
        ],
      },
    },
    {
      name: 'application-not-adapters',
      severity: 'error',
      comment: 'Use cases depend on ports; the adapters implement them (dependencies point inward).',
      from: { path: '^(services/[^/]+)/src/application/' },
      to: { path: '^$1/src/adapters/' },
    },
    {
      name: 'no-sibling-adapter',
      severity: 'error',
      comment:
        'An adapter reaches another only through the application or the composition root, so ' +
        'each can be replaced alone. A file directly under adapters/ counts as its own adapter; a ' +
        'folder inside one (adapters/http/signing/) is part of it.',
      from: { path: '^(services/[^/]+)/src/adapters/([^/]+)' },
      to: { path: '^$1/src/adapters/', pathNot: '^$1/src/adapters/$2(/|$)' },
    },
    {
      name: 'no-cross-service',
      severity: 'error',
      comment:
        'Services talk over HTTP and events, never through each other’s code. One exception: the ' +
        'gateway runs the web application (services/web, a client of the public API) in its own ' +
        'process and mounts it through its one entry point (ADR 1400), and nothing else of it.',
      from: { path: '^services/([^/]+)/' },
      to: {
        path: '^services/',
        pathNot: ['^services/$1/', '^services/web/src/index\\.ts$'],
      },
    },
    {
      name: 'only-the-gateway-mounts-the-web-app',
      severity: 'error',
      comment: 'The web application is the gateway’s to mount; no other service may reach it.',
      from: { path: '^services/', pathNot: '^services/(gateway|web)/' },
      to: { path: '^services/web/' },
    },
    {
      name: 'contracts-stand-alone',
      severity: 'error',
      comment: 'The shared language has no I/O: it imports no service, platform or test code.',
      from: { path: '^libs/contracts/' },
      to: { path: '^(services|libs/platform|libs/testing)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    // `import type` counts: a type-only cycle still ties two modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Workspace packages resolve to their TypeScript sources, as tsc and the tests see them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
