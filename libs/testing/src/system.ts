import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, listensOn } from './ports.js';

/** The repository root, from src/ (tsx) and dist/src/ (node) alike. */
export const repoRoot = join(
  dirname(fileURLToPath(import.meta.url)),
  import.meta.url.includes('/dist/') ? '../../../..' : '../../..',
);

export { freePort } from './ports.js';

export type ServiceName = 'auth' | 'requests' | 'notifier' | 'gateway';

export interface RunningService {
  readonly name: ServiceName;
  readonly port: number;
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the process wrote, for assertions and failure messages. */
  readonly output: () => string;
  /** Sends `signal` and resolves with the exit code (or signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

let containers = 0;

/**
 * `docker run` of the service image with the restrictions compose and Kubernetes apply
 * (read-only root, /tmp in memory, no capabilities, no privilege gain), on the host's
 * network (this machine has no bridge). Only the variables given are passed; an absolute
 * path among them (a directory the service writes, a key file it reads) is mounted at the
 * same place. The CLI stays attached, so its output is the container's and a signal sent
 * to it reaches the container (tini, then the service); `--rm` removes it afterwards.
 */
const dockerRun = (
  image: string,
  container: string,
  name: ServiceName,
  env: Record<string, string>,
): string[] => {
  const mounts = Object.values(env).filter((value) => value.startsWith('/') && existsSync(value));
  return [
    'run',
    '--rm',
    '--name',
    container,
    '--network',
    'host',
    '--read-only',
    '--tmpfs',
    '/tmp',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges:true',
    ...Object.keys(env).flatMap((key) => ['--env', key]),
    ...mounts.flatMap((path) => ['--volume', `${path}:${path}`]),
    image,
    'node',
    `services/${name}/dist/src/main.js`,
  ];
};

/**
 * Starts a built service (`services/<name>/dist/src/main.js`) as a real process, the way
 * `npm start` does, or from the service image (`image`) in a container, and waits until
 * its /healthz answers.
 */
export const startService = async (
  name: ServiceName,
  env: Record<string, string>,
  options: { port?: number; timeoutMs?: number; nodeArgs?: readonly string[]; image?: string } = {},
): Promise<RunningService> => {
  const port = options.port ?? (await freePort());
  const serviceEnv = { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...env, PORT: String(port) };
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...serviceEnv };
  // Tests run under tsx with the "source" condition; a built service runs plain, with the
  // young generation size and malloc arenas the image and `npm start` give it (ADRs 2600,
  // 2700).
  childEnv.NODE_OPTIONS = '--max-semi-space-size=8';
  childEnv.MALLOC_ARENA_MAX = '2';
  const main = join(repoRoot, 'services', name, 'dist', 'src', 'main.js');
  const container = `esign-test-${name}-${process.pid}-${(containers += 1)}`;
  // A signal for a container goes through the engine: killing the attached CLI with
  // SIGKILL would leave the container running.
  const signal = (sent: NodeJS.Signals) => {
    if (options.image === undefined) child.kill(sent);
    else spawn('docker', ['kill', '--signal', sent, container], { stdio: 'ignore' });
  };
  const child =
    options.image === undefined
      ? spawn(process.execPath, [...(options.nodeArgs ?? []), main], {
          cwd: repoRoot,
          env: childEnv,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn('docker', dockerRun(options.image, container, name, serviceEnv), {
          env: childEnv,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  // The tail only: a long benchmark at LOG_LEVEL=info would otherwise hoard every line.
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 512 * 1024) output = output.slice(-256 * 1024);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited during start-up (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      // Healthy, and the answer came from this child (not another process on its port).
      if (response.ok && (options.image !== undefined || listensOn(child.pid, port) !== false)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      signal('SIGKILL');
      throw new Error(`${name} did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const service: RunningService = {
    name,
    port,
    url,
    process: child,
    output: () => output,
    stop: (sent = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) signal(sent);
      return exited;
    },
  };
  // What scripts/mocha-failure-logs.mjs prints when a test fails while it runs.
  runningServices.add(service);
  void exited.then(() => runningServices.delete(service));
  return service;
};

/** Every service process a test started that still runs (read by a failing test's report). */
const runningServices: Set<RunningService> = ((
  globalThis as Record<string, unknown>
).__esignRunningServices ??= new Set<RunningService>()) as Set<RunningService>;
