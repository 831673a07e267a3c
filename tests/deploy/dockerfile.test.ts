// The container image, checked without a Docker engine: the Dockerfile is parsed and
// linted, and what its runtime stage installs is checked against the lock file and
// the services' imports (a production install must be enough to run them).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import type { Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { execForm, flagsOf, parseStages, runText, type Stage } from './support/dockerfile.js';
import { repoRoot } from './support/paths.js';
import { serviceNames } from './support/service-config.js';

const source = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const stages = parseStages(source);
const runtime = stages.at(-1)!;
const only = (stage: Stage, keyword: string): Instruction[] =>
  stage.instructions.filter((i) => i.getKeyword() === keyword);
const last = (stage: Stage, keyword: string): Instruction | undefined => only(stage, keyword).at(-1);

interface LockEntry {
  readonly dev?: boolean;
  readonly hasInstallScript?: boolean;
  readonly link?: boolean;
  readonly resolved?: string;
}
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

describe('Dockerfile', () => {
  it('has no error a Docker build would report (dockerfile-utils lint)', () => {
    const problems = validate(source).filter((d) => d.severity === 1);
    assert.deepEqual(
      problems.map(
        (d) =>
          `line ${d.range.start.line + 1}: ${typeof d.message === 'string' ? d.message : d.message.value}`,
      ),
      [],
    );
  });

  it('is multi-stage: every build stage on Node 24 (node:24-…), the final stage from scratch', () => {
    assert.ok(stages.length >= 2, 'expected a build stage and a runtime stage');
    for (const stage of stages.slice(0, -1)) {
      assert.match(stage.image, /^node:24(\.\d+){0,2}-[a-z0-9-]+(@sha256:[a-f0-9]{64})?$/, stage.image);
    }
    assert.equal(runtime.image, 'scratch', 'the final stage carries only what is copied into it');
    const build = stages.find((s) => s.name === 'build')!;
    assert.match(only(build, 'RUN').map(runText).join('\n'), /cp \/usr\/local\/bin\/node \/rootfs\//);
  });

  it('runs as a numeric, non-root user in the final stage (so runAsNonRoot can verify it)', () => {
    const user = last(runtime, 'USER');
    assert.ok(user !== undefined, 'USER missing in the final stage');
    const [uid = '', gid = '0'] = user.getArgumentsContent()!.trim().split(':');
    assert.match(uid, /^\d+$/, 'numeric uid');
    assert.notEqual(Number(uid), 0, 'uid 0 is root');
    assert.notEqual(Number(gid), 0, 'gid 0 is root');
  });

  it('sets NODE_ENV=production, the young generation and the malloc arenas in the final stage (ADRs 2600, 2700)', () => {
    const env = only(runtime, 'ENV').flatMap((i) =>
      (i as Instruction & { getProperties(): { getName(): string; getValue(): string | null }[] })
        .getProperties()
        .map((p) => [p.getName(), p.getValue()]),
    );
    assert.ok(env.some(([name, value]) => name === 'NODE_ENV' && value === 'production'));
    assert.ok(env.some(([name, value]) => name === 'NODE_OPTIONS' && value === '--max-semi-space-size=8'));
    assert.ok(env.some(([name, value]) => name === 'MALLOC_ARENA_MAX' && value === '2'));
  });

  it('traces what ships from a production install (npm ci --omit=dev) only, and runs nothing in the final stage', () => {
    const production = stages.find((s) => s.name === 'production');
    assert.ok(production !== undefined, 'a stage named production');
    const installs = only(production, 'RUN')
      .map(runText)
      .filter((text) => /\bnpm ci\b/.test(text));
    assert.equal(installs.length, 1, 'one npm ci in the production stage');
    assert.match(installs[0]!, /--omit=dev\b/);
    const build = stages.find((s) => s.name === 'build')!;
    assert.ok(
      only(build, 'COPY').some((c) => flagsOf(c).get('from') === 'production'),
      'the build stage takes the production install',
    );
    assert.match(
      only(build, 'RUN').map(runText).join('\n'),
      /node scripts\/image-files\.mjs \/prod \/rootfs\/app/,
      'the traced files come from the production install',
    );
    assert.deepEqual(only(runtime, 'RUN'), [], 'no RUN in the final stage (it has no shell)');
  });

  it('keeps tini as PID 1: its static build copied in, exec-form ENTRYPOINT, exec-form CMD', () => {
    const build = stages.find((s) => s.name === 'build')!;
    assert.ok(
      only(build, 'RUN').some((i) => /apt-get install\b.*\btini\b/.test(runText(i))),
      'tini installed in the build stage',
    );
    assert.match(
      only(build, 'RUN').map(runText).join('\n'),
      /cp \/usr\/bin\/tini-static \/rootfs\/usr\/bin\/tini/,
    );
    const entrypoint = last(runtime, 'ENTRYPOINT');
    assert.deepEqual(entrypoint && execForm(entrypoint), ['/usr/bin/tini', '--']);
    const cmd = last(runtime, 'CMD');
    const command = cmd && execForm(cmd);
    assert.ok(command !== undefined, 'CMD in exec form');
    assert.equal(command[0], 'node');
    assert.match(command[1]!, /^services\/[a-z]+\/dist\/src\/main\.js$/);
    assert.ok(existsSync(join(repoRoot, command[1]!.replace('/dist/src/', '/src/').replace(/\.js$/, '.ts'))));
  });

  it('declares an exec-form HEALTHCHECK against /healthz on $PORT', () => {
    const healthcheck = last(runtime, 'HEALTHCHECK');
    assert.ok(healthcheck !== undefined, 'HEALTHCHECK in the final stage');
    const command = execForm(healthcheck);
    assert.ok(command !== undefined, 'exec form');
    assert.match(command.join(' '), /\/healthz/);
    assert.match(command.join(' '), /process\.env\.PORT/);
    assert.ok(flagsOf(healthcheck).has('timeout'));
  });

  it('ships compiled code and migrations, not sources, tests or the test helpers', () => {
    const build = stages.find((s) => s.name === 'build')!;
    const script = only(build, 'RUN').map(runText).join('\n');
    assert.match(script, /tsc -b/);
    assert.match(script, /migrations/);
    // What scripts/image-files.mjs copies of our own code.
    const copier = readFileSync(join(repoRoot, 'scripts', 'image-files.mjs'), 'utf8');
    assert.match(copier, /libs\/testing/, 'libs/testing is left out');
    assert.match(copier, /dist\/test/, 'compiled tests are left out');
    assert.match(copier, /\.d\.ts/, 'declarations are left out');
    const fromBuild = only(runtime, 'COPY').filter((c) => flagsOf(c).get('from') === 'build');
    assert.deepEqual(
      fromBuild.map((c) => c.getArguments()[0]!.getValue()),
      ['/rootfs/'],
    );
  });

  it('compiles only TypeScript projects whose files (and references) are copied into the build stage', () => {
    const build = stages.find((s) => s.name === 'build')!;
    const script = only(build, 'RUN').map(runText).join('\n');
    const targets = /tsc -b ([^;&\n]+)/.exec(script)?.[1]?.trim().split(/\s+/) ?? ['.'];
    const copied = only(build, 'COPY')
      .filter((c) => !flagsOf(c).has('from'))
      .flatMap((c) =>
        c
          .getArguments()
          .slice(0, -1)
          .map((a) => a.getValue()),
      );
    const expand = (target: string): string[] =>
      target.endsWith('/*')
        ? readdirSync(join(repoRoot, target.slice(0, -2))).map((name) => `${target.slice(0, -2)}/${name}`)
        : [target];
    const seen = new Set<string>();
    const visit = (project: string) => {
      const dir = relative(repoRoot, join(repoRoot, project)) || '.';
      if (seen.has(dir)) return;
      seen.add(dir);
      const tsconfig = dir === '.' ? 'tsconfig.json' : `${dir}/tsconfig.json`;
      assert.ok(
        copied.some((path) => tsconfig === path || tsconfig.startsWith(`${path}/`)),
        `${tsconfig} is compiled in the build stage but not copied into it`,
      );
      const config = JSON.parse(readFileSync(join(repoRoot, tsconfig), 'utf8')) as {
        references?: { path: string }[];
      };
      for (const reference of config.references ?? []) visit(join(dir, reference.path));
    };
    for (const target of targets.flatMap(expand)) visit(target);
    assert.ok(seen.size > 1);
  });

  it('sends nothing local into the build context (.dockerignore) but keeps what COPY needs', () => {
    const ignored = readFileSync(join(repoRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    for (const pattern of ['**/node_modules', '**/dist', '.git', '.data', '.env']) {
      assert.ok(ignored.includes(pattern), `.dockerignore lacks ${pattern}`);
    }
    const fromContext = stages
      .flatMap((s) => only(s, 'COPY'))
      .filter((c) => !flagsOf(c).has('from'))
      .flatMap((c) =>
        c
          .getArguments()
          .slice(0, -1)
          .map((a) => a.getValue()),
      );
    for (const path of fromContext) {
      assert.ok(existsSync(join(repoRoot, path)), `COPY ${path}: no such file`);
      // The last pattern that matches decides; `!pattern` brings a path back.
      const decisive = ignored.findLast((pattern) => {
        const bare = pattern.replace(/^!/, '');
        return bare === path || path.startsWith(`${bare}/`);
      });
      assert.ok(
        decisive === undefined || decisive.startsWith('!'),
        `COPY ${path} is excluded by .dockerignore`,
      );
    }
  });
});

describe('what the image installs (package-lock.json)', () => {
  it('no production dependency has an install script (the image installs with --ignore-scripts)', () => {
    // core-js (a peer of redoc, whose bundle the gateway serves at /docs) only prints a
    // funding banner after install: skipping it changes nothing. koffi's script checks that
    // its prebuilt binary loads, and builds one from source if not; the binary comes in
    // its optional dependency @koromix/koffi-linux-x64, which has no script (ADR 2750).
    const harmless = new Set(['node_modules/core-js', 'node_modules/koffi']);
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true && entry.dev !== true)
      .map(([path]) => path)
      .filter((path) => !harmless.has(path));
    assert.deepEqual(withScripts, []);
  });

  it('test helpers (libs/testing) bring no production dependency', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'libs/testing/package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
    assert.equal(lock.packages['node_modules/testcontainers']?.dev, true, 'testcontainers is dev-only');
  });

  it('every package the shipped code imports is a production dependency', () => {
    const roots = [
      ...readdirSync(join(repoRoot, 'libs'))
        .filter((name) => name !== 'testing')
        .map((name) => join(repoRoot, 'libs', name, 'src')),
      ...serviceNames().map((name) => join(repoRoot, 'services', name, 'src')),
    ];
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => {
        const path = join(dir, entry);
        return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
      });
    const files = roots.flatMap(walk);
    assert.ok(files.length > 0);
    const builtins = new Set(builtinModules);
    const missing: string[] = [];
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      const specifiers = [
        ...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm),
        ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((m) => m[1]!);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.') || specifier.startsWith('node:') || builtins.has(specifier)) continue;
        const parts = specifier.split('/');
        const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
        const entry = lock.packages[`node_modules/${name}`];
        if (entry === undefined || entry.dev === true || name === '@esign/testing') {
          missing.push(`${relative(repoRoot, file)}: ${name}`);
        }
      }
    }
    assert.deepEqual(missing, []);
  });
});
