import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The exact bytes received, as text: what a receiver verifies. */
  readonly body: string;
  readonly at: number;
}

/** How the receiver answers one request: a status and body, a redirect, or never (to time the sender out). */
export type Answer =
  | { readonly status: number; readonly body?: string; readonly headers?: Record<string, string> }
  | { readonly hang: true };

export interface WebhookReceiver {
  readonly port: number;
  readonly url: (path?: string) => string;
  readonly received: ReceivedWebhook[];
  /** Answers to give, first to last, for requests to `path`; then 200 "ok". */
  readonly script: (path: string, ...answers: Answer[]) => void;
  readonly on: (path: string) => ReceivedWebhook[];
  readonly close: () => Promise<void>;
}

/** A client application's webhook endpoint: an HTTP server on 127.0.0.1, port chosen by the OS. */
export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, Answer[]>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = scripts.get(path)?.shift() ?? { status: 200, body: 'ok' };
      if ('hang' in answer) {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    script: (path, ...answers) => scripts.set(path, [...(scripts.get(path) ?? []), ...answers]),
    on: (path) => received.filter((r) => r.path === path),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type VerifyWebhook = (
  secret: string,
  header: string | undefined,
  rawBody: string,
  now?: number,
) => boolean;

const README = new URL('../../../../README.md', import.meta.url);

/**
 * The receiver-side check exactly as the README documents it: the snippet is cut out of
 * README.md and imported, so the tests verify deliveries with what receivers copy.
 */
export const readmeVerifier = async (): Promise<{ verifyWebhook: VerifyWebhook; source: string }> => {
  const readme = await readFile(README, 'utf8');
  const match = /<!-- webhook-verify-snippet[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme);
  if (match === null) throw new Error('README.md has no webhook-verify-snippet block');
  const source = match[1]!;
  const dir = await mkdtemp(join(tmpdir(), 'webhook-verify-'));
  const file = join(dir, 'verify-webhook.mjs');
  await writeFile(file, source);
  const module = (await import(pathToFileURL(file).href)) as { verifyWebhook: VerifyWebhook };
  return { verifyWebhook: module.verifyWebhook, source };
};
