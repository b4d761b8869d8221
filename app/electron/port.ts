// The server's port is chosen once, at the first start, and then kept: the register terminals
// are set up with it, so the app never moves to another one. A port another program holds at a
// later start is an error the app shows (supervisor.ts "port-in-use"), not a reason to move.
import { createServer } from 'node:net';

/** The CLI's own default (`serve` without --port), the port the README and terminals know. */
export const DEFAULT_PORT = 8080;

/** True when nothing listens on host:port (we could bind it ourselves). */
export function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port the system has free on host right now. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ port: 0, host, exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error(`no free port on ${host}`))));
    });
  });
}

export interface PortChoice {
  port: number;
  /** Where it came from: the saved setting, the default, or the system (first start only). */
  source: 'saved' | 'default' | 'free';
  /** Whether to write it to the settings: a first start's choice is. */
  save: boolean;
}

/**
 * The saved port, whether free or not. With none saved (the first start, the set-up): the
 * default if free, else a free one the system hands out; that choice is saved and kept.
 */
export async function choosePort(opts: { saved?: number; host: string; defaultPort?: number }): Promise<PortChoice> {
  const { saved, host } = opts;
  if (saved !== undefined) return { port: saved, source: 'saved', save: false };
  const defaultPort = opts.defaultPort ?? DEFAULT_PORT;
  if (await isPortFree(defaultPort, host)) return { port: defaultPort, source: 'default', save: true };
  return { port: await freePort(host), source: 'free', save: true };
}

/**
 * A port to offer when the kept one is taken, for a person to accept (never taken silently): the
 * first free one just above the default, so it stays easy to type into a terminal, else any.
 */
export async function suggestPort(host: string, taken: number, from = DEFAULT_PORT + 1, to = DEFAULT_PORT + 19): Promise<number> {
  for (let port = from; port <= to; port += 1) {
    if (port !== taken && (await isPortFree(port, host))) return port;
  }
  return freePort(host);
}
