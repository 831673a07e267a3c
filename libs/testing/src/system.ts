import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from src/ (tsx) and dist/src/ (node) alike. */
export const repoRoot = join(
  dirname(fileURLToPath(import.meta.url)),
  import.meta.url.includes('/dist/') ? '../../../..' : '../../..',
);

/** A port nobody listens on right now (the OS picks it). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

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

/**
 * Starts a built service (`services/<name>/dist/src/main.js`) as a real process, the way
 * `npm start` does, and waits until its /healthz answers.
 */
export const startService = async (
  name: ServiceName,
  env: Record<string, string>,
  options: { port?: number; timeoutMs?: number; nodeArgs?: readonly string[] } = {},
): Promise<RunningService> => {
  const port = options.port ?? (await freePort());
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    ...env,
    PORT: String(port),
  };
  // Tests run under tsx with the "source" condition; a built service runs plain.
  delete childEnv.NODE_OPTIONS;
  const main = join(repoRoot, 'services', name, 'dist', 'src', 'main.js');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), main], {
    cwd: repoRoot,
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
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    port,
    url,
    process: child,
    output: () => output,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
};
