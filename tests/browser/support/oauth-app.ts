import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface Json {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A PKCE pair (RFC 7636, S256). */
export const pkce = () => {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** An HTTP call as a third-party app makes it: a bearer, a JSON or a form body; the answer as JSON. */
export const httpCaller =
  (baseUrl: () => string) =>
  async (
    method: string,
    path: string,
    options: { bearer?: string; json?: unknown; form?: Record<string, string> } = {},
  ): Promise<Json> => {
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: {
        ...(options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` }),
        ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body:
        options.json !== undefined
          ? JSON.stringify(options.json)
          : options.form !== undefined
            ? new URLSearchParams(options.form).toString()
            : null,
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
  };

/** The app's own callback page, on a free loopback port (http is allowed there). */
export const startCallbackServer = async (): Promise<{ url: string; close: () => Promise<void> }> => {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>CRM</title><h1>Back at the CRM</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/oauth/callback`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
