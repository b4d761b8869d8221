// The server's port: the saved one while it is free (bookmarks, LAN terminals and the browser's
// stored login keep working), else the CLI's default, else any free port the system hands out.
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
  /** Where it came from: the saved setting, the default, or the system. */
  source: 'saved' | 'default' | 'free';
  /** Whether to write it to the settings: only the first choice is kept, a stand-in never is. */
  save: boolean;
}

/**
 * The saved port if free. With none saved (first start): the default if free, else a free one,
 * and that choice is saved. A saved port that is taken is not replaced for good: this run uses a
 * free port and the next start tries the saved one again (whatever held it may be gone).
 */
export async function choosePort(opts: { saved?: number; host: string; defaultPort?: number }): Promise<PortChoice> {
  const { saved, host } = opts;
  const defaultPort = opts.defaultPort ?? DEFAULT_PORT;
  if (saved !== undefined) {
    if (await isPortFree(saved, host)) return { port: saved, source: 'saved', save: false };
    return { port: await freePort(host), source: 'free', save: false };
  }
  if (await isPortFree(defaultPort, host)) return { port: defaultPort, source: 'default', save: true };
  return { port: await freePort(host), source: 'free', save: true };
}
