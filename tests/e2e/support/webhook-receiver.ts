import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook delivery's body as the end-to-end suites read it. */
export interface Delivered {
  readonly id: string;
  readonly type: string;
  readonly site_id: number;
  readonly data: {
    readonly request_id?: string;
    // A template's events (ADR 3350).
    readonly contract_id?: number;
    readonly state?: string;
    readonly archived_at?: string | null;
  };
}

/**
 * An HTTP receiver on loopback that answers 200 to every POST and keeps each body, in
 * the order they came, in `delivered`. `url(path)` is where an endpoint points at it.
 */
export const webhookReceiver = () => {
  const delivered: Delivered[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      delivered.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Delivered);
      res.writeHead(200).end('ok');
    });
  });
  return {
    delivered,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise((resolve) => server.close(resolve)),
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/${path}`,
  };
};
