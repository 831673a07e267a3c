// Copies into <out> exactly what the services load at run time: every workspace's
// compiled code and migrations, and from node_modules only the files that their entry
// points reach (traced by @vercel/nft, the tracer Next.js uses for its standalone
// output), plus the assets read through computed paths that a tracer cannot follow.
// Run by the Dockerfile's build stage; `npm ci --omit=dev` ships 230 MB of packages,
// most of which (redoc's React tree, pdf-lib's browser bundles, type declarations)
// no service ever loads. Decisions: docs/adr/0907-images-built-without-a-registry.md.
//
//   node scripts/image-files.mjs <root> <out>
//
// <root> holds the workspaces' package.json, dist/ and migrations/ and a production
// install (npm ci --omit=dev), so nothing outside the production dependencies can be
// traced into the image; the tracer itself comes from this script's own node_modules.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { nodeFileTrace } from '@vercel/nft';

const [root, out] = process.argv.slice(2).map((path) => resolve(path));
if (root === undefined || out === undefined) {
  console.error('usage: node scripts/image-files.mjs <root> <out>');
  process.exit(2);
}

// What the image runs: each service, its migrations, auth's operator CLI, and the
// worker thread that reads uploaded PDFs under limits.
const entries = [
  ...['auth', 'requests', 'notifier', 'gateway'].map((s) => `services/${s}/dist/src/main.js`),
  ...['auth', 'requests', 'notifier'].map((s) => `services/${s}/dist/src/migrate.js`),
  'services/auth/dist/src/adapters/cli/admin.js',
  'services/requests/dist/src/adapters/pdf/pdf-form-worker.js',
].filter((file) => existsSync(join(root, file)));

// Every workspace, and those the image ships (the test harness and the typed API client
// are for other programs).
const workspaces = ['libs', 'services'].flatMap((dir) =>
  readdirSync(join(root, dir)).map((name) => `${dir}/${name}`),
);
const shipped = (workspace) => workspace !== 'libs/testing' && workspace !== 'libs/client';

// Read through paths the tracer cannot see (require.resolve of a computed name): every
// font file that shipped code names by its package path (the PDF fonts), found in the
// compiled code itself so a font added there ships without an edit here (and one named
// only by a workspace the image does not ship is not looked for).
const FONT = /['"`]((?:@[\w.-]+\/)?[\w.-]+\/[\w./-]+\.(?:ttf|otf|woff2?))['"`]/g;
const jsFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : jsFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
const fontAssets = new Set();
for (const workspace of workspaces.filter(shipped).map((name) => join(root, name, 'dist'))) {
  if (!existsSync(workspace)) continue;
  for (const file of jsFiles(workspace))
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(FONT)) {
      const resolved = createRequire(file).resolve(specifier);
      fontAssets.add(relative(root, resolved));
      const pkg = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : specifier.split('/')[0];
      if (existsSync(join(root, 'node_modules', pkg, 'package.json')))
        fontAssets.add(`node_modules/${pkg}/package.json`);
    }
}
// And redoc's standalone bundle, which the gateway's API docs page serves; and koffi's
// native part for glibc on x64 (the malloc trimmer's FFI, ADR 2750), which its package
// requires through a table the tracer does not follow.
const KOFFI_GLIBC_X64 = 'node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node';
const assets = [
  ...fontAssets,
  'node_modules/redoc/bundles/redoc.standalone.js',
  ...(existsSync(join(root, KOFFI_GLIBC_X64)) ? [KOFFI_GLIBC_X64] : []),
];

const { fileList, warnings } = await nodeFileTrace(
  entries.map((file) => join(root, file)),
  { base: root, processCwd: root },
);
const problems = [...warnings].filter((w) => !/Failed to resolve dependency/.test(String(w?.message ?? w)));
for (const warning of problems) console.warn(`[image-files] ${String(warning?.message ?? warning)}`);

const copy = (path) => {
  const from = join(root, path);
  const to = join(out, path);
  mkdirSync(dirname(to), { recursive: true });
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) {
    if (!existsSync(to)) symlinkSync(readlinkSync(from), to);
  } else cpSync(from, to, { recursive: true });
};

// The workspaces' own links (node_modules/@esign/* → libs/*, services/*) first, as links:
// the tracer also lists files through them, which would otherwise become copies.
for (const name of readdirSync(join(root, 'node_modules', '@esign'))) {
  const links = join(root, 'node_modules', '@esign');
  if (shipped(relative(root, resolve(links, readlinkSync(join(links, name))))))
    copy(`node_modules/@esign/${name}`);
}
let packages = 0;
for (const path of fileList) {
  if (!path.startsWith('node_modules/') || path.startsWith('node_modules/@esign/')) continue;
  copy(path);
  packages += 1;
}
for (const asset of assets) copy(asset);

// Our own code: every shipped workspace's dist (no compiled tests) and its SQL migrations.
for (const workspace of workspaces) {
  if (!shipped(workspace)) continue;
  for (const part of ['package.json', 'dist', 'migrations']) {
    if (!existsSync(join(root, workspace, part))) continue;
    cpSync(join(root, workspace, part), join(out, workspace, part), {
      recursive: true,
      filter: (src) => {
        const rel = relative(join(root, workspace), src);
        return !(
          rel === 'dist/test' ||
          rel.startsWith('dist/test/') ||
          src.endsWith('.d.ts') ||
          src.endsWith('.tsbuildinfo') ||
          src.endsWith('.js.map')
        );
      },
    });
  }
}
copy('package.json');
console.log(
  `[image-files] ${entries.length} entry points, ${packages} files from node_modules, ${fontAssets.size} font files`,
);
