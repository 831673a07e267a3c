import net from 'node:net';

/**
 * One address in front of several replicas of a service, as a Kubernetes Service is:
 * each new TCP connection goes to the next backend in turn; a backend that refuses the
 * connection (a replica restarting) is skipped for the next one. A connection stays with
 * its backend for its life, so keep-alive clients stick to one replica until it closes.
 */
export interface RoundRobinProxy {
  readonly port: number;
  /** Takes a backend out of the rotation (an endpoint removed before SIGTERM). */
  remove(port: number): void;
  /** Puts it back (ready again). */
  add(port: number): void;
  /** Connections made to each backend so far. */
  readonly connections: ReadonlyMap<number, number>;
  close(): Promise<void>;
}

export const startRoundRobinProxy = async (backends: readonly number[]): Promise<RoundRobinProxy> => {
  const rotation = [...backends];
  const connections = new Map<number, number>();
  const sockets = new Set<net.Socket>();
  let next = 0;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };

  const connect = (client: net.Socket, attemptsLeft: number) => {
    if (rotation.length === 0 || attemptsLeft === 0 || client.destroyed) {
      client.destroy();
      return;
    }
    const port = rotation[next++ % rotation.length]!;
    const upstream = net.connect(port, '127.0.0.1');
    let connected = false;
    track(upstream);
    upstream.once('error', () => {
      if (!connected) connect(client, attemptsLeft - 1);
    });
    upstream.once('connect', () => {
      connected = true;
      connections.set(port, (connections.get(port) ?? 0) + 1);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.resume();
    });
  };

  const server = net.createServer((client) => {
    track(client);
    client.pause();
    connect(client, Math.max(1, rotation.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    remove: (port) => {
      const index = rotation.indexOf(port);
      if (index >= 0) rotation.splice(index, 1);
    },
    add: (port) => {
      if (!rotation.includes(port)) rotation.push(port);
    },
    connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
