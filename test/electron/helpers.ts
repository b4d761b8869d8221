import type { ServerState, Supervisor } from '../../app/electron/supervisor.js';

/** A state as one line: its kind and the numbers a test compares. */
export function describeState(s: ServerState): string {
  switch (s.kind) {
    case 'starting':
      return `starting ${s.restarts}`;
    case 'running':
      return `running ${s.restarts}`;
    case 'waiting':
      return `waiting crash=${s.crashes} in=${s.retryInMs} (${s.reason})`;
    case 'port-in-use':
      return `port-in-use ${s.port}`;
    case 'failed':
      return `failed crashes=${s.crashes} (${s.reason}) ${s.tail.join('|')}`;
    case 'stopped':
      return 'stopped';
  }
}

/** Resolves at the first state that passes `check` (now or later); bounded. */
export function until(supervisor: Supervisor, check: (s: ServerState) => boolean, ms = 30_000): Promise<ServerState> {
  if (check(supervisor.state)) return Promise.resolve(supervisor.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no such state within ${ms} ms; last: ${describeState(supervisor.state)}`)), ms);
    supervisor.onState((s) => {
      if (!check(s)) return;
      clearTimeout(timer);
      resolve(s);
    });
  });
}

/** The running server of a state (the test asked for 'running'). */
export function runningServer(s: ServerState) {
  if (s.kind !== 'running') throw new Error(`not running: ${describeState(s)}`);
  return s.server;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 100 ms for at most `ms`. */
export async function eventually(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}
