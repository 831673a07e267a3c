import net from 'node:net';

/**
 * A TCP proxy a test controls, to cut and restore a dependency (Postgres, RabbitMQ)
 * without touching the machine's shared servers.
 */
export interface TcpProxy {
  readonly port: number;
  /** Drops every open connection and refuses new ones until `restore`. */
  cut(): void;
  restore(): void;
  /** Adds latency to every chunk forwarded, both ways. */
  delay(ms: number): void;
  close(): Promise<void>;
}

export const startTcpProxy = async (targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> => {
  let refusing = false;
  let latencyMs = 0;
  const sockets = new Set<net.Socket>();
  const pipe = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (latencyMs === 0) to.write(chunk);
      else setTimeout(() => to.writable && to.write(chunk), latencyMs);
    });
  };
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    pipe(client, upstream);
    pipe(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    restore: () => {
      refusing = false;
    },
    delay: (ms) => {
      latencyMs = ms;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
