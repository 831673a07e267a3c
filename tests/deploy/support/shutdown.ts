// The deploy tests' helpers (shutdown.test.ts, start.test.ts): ports that refuse, waits,
// fake upstreams, and a compiled service started as a process of its own, with requests
// sent to it by hand. Free ports come from @esign/testing.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export const listen = async (server: Server | net.Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

export const refusesConnections = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

export const until = async (
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs: number,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** An HTTP server standing in for another service; `hold()` makes it keep its answers until released. */
export const fakeUpstream = () => {
  let held: (() => void)[] | undefined;
  let seen: (() => void) | undefined;
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    const answer = () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"status":"ok"}');
    };
    if (held === undefined) return answer();
    held.push(answer);
    seen?.();
  });
  return {
    server,
    /** Resolves when the first request arrives while held. */
    hold: () =>
      new Promise<void>((resolve) => {
        held = [];
        seen = resolve;
      }),
    release: () => {
      for (const answer of held ?? []) answer();
      held = undefined;
    },
  };
};

export interface Running {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Processes to kill if a test fails before they exit: never leave a service running. */
export const spawned: ChildProcess[] = [];

export const start = async (service: string, env: Record<string, string>): Promise<Running> => {
  const port = Number(env.PORT);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The test runner's NODE_OPTIONS load tsx and the "source" condition; production runs plain node.
  delete childEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, [join(repoRoot, 'services', service, 'dist', 'src', 'main.js')], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  await until(
    `${service} healthy on ${port}`,
    async () => {
      if (gone) throw new Error(`${service} exited during start-up:\n${output}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    },
    30_000,
  );
  return { child, port, output: () => output, exited };
};

/** Sends a request and hands back its response (body read in full) as a promise. */
export const send = (
  port: number,
  options: { method: string; path: string; headers?: Record<string, string> },
): { req: ReturnType<typeof request>; response: Promise<{ status: number; body: string; at: number }> } => {
  const req = request({ host: '127.0.0.1', port, agent: false, ...options });
  const response = new Promise<{ status: number; body: string; at: number }>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body, at: Date.now() }));
      res.once('error', reject);
    });
  });
  return { req, response };
};
