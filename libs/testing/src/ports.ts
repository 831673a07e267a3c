import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';

/**
 * Ports for the services a test starts. The OS's pick (`listen(0)`) comes from the
 * ephemeral range, where every outgoing connection and every other test process on the
 * machine picks too: two suites side by side could be handed the same port between its
 * check and the service's listen, and one suite's `/healthz` then answered for another's
 * service. These come from below that range (10000–31999, which no outgoing connection
 * takes), from a window of 64 ports of this process's own (by its pid), each tried by
 * binding it, moving on through the windows when one is full.
 */
const FIRST = 10_000;
const WINDOW = 64;
const WINDOWS = Math.floor((32_000 - FIRST) / WINDOW);
let next = 0;

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A port nobody listens on right now, from this process's own window. */
export const freePort = async (): Promise<number> => {
  const home = (process.pid * 7919) % WINDOWS;
  for (let tries = 0; tries < WINDOWS * WINDOW; tries++) {
    const offset = next++;
    const window = (home + Math.floor(offset / WINDOW)) % WINDOWS;
    const port = FIRST + window * WINDOW + (offset % WINDOW);
    if (await bindable(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
};

/**
 * Whether process `pid` holds the listening socket of `port` (Linux's /proc), so a
 * `/healthz` that answers there is that process's; undefined where it cannot be told.
 */
export const listensOn = (pid: number | undefined, port: number): boolean | undefined => {
  if (pid === undefined) return undefined;
  try {
    const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
    const inodes = new Set<string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        // local address, state 0A (LISTEN), inode
        if (cols.length > 9 && cols[1]!.endsWith(hex) && cols[3] === '0A') inodes.add(cols[9]!);
      }
    }
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        return inode !== undefined && inodes.has(inode);
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
};
