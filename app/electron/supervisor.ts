// Keeps the store server running: the register terminals sell through it, so a crash is not the
// end. A server that dies is started again after a back-off; one that keeps dying (maxCrashes
// within windowMs) is left stopped and reported, because only a person can fix what kills it
// every time (a broken database, a full disk). A port another program holds is neither a crash
// nor a reason to move: the server waits for that same port, since the terminals know no other.
import { CrashWindow } from './crash-window.js';
import { ServerStartError, type RunningServer } from './server-process.js';

export interface SupervisorPolicy {
  /** The wait before the 1st, 2nd, 3rd… restart within the window; the last one repeats. */
  backoffMs: readonly number[];
  /** Crashes within windowMs that end the restarts. */
  maxCrashes: number;
  windowMs: number;
  /** How often a port held by another program is tried again. */
  portRetryMs: number;
}

export const DEFAULT_POLICY: SupervisorPolicy = { backoffMs: [1_000, 3_000, 10_000, 30_000], maxCrashes: 5, windowMs: 10 * 60_000, portRetryMs: 10_000 };

export type ServerState =
  | { kind: 'starting'; restarts: number }
  | { kind: 'running'; server: RunningServer; restarts: number }
  /** Crashed; starts again in retryInMs. */
  | { kind: 'waiting'; restarts: number; crashes: number; retryInMs: number; reason: string; tail: string[] }
  | { kind: 'port-in-use'; port: number; retryInMs: number; tail: string[] }
  /** Crashed maxCrashes times within the window: no more restarts until restart() is called. */
  | { kind: 'failed'; crashes: number; reason: string; tail: string[] }
  | { kind: 'stopped' };

export interface SupervisorDeps {
  /** Starts one server process and resolves when it is ready (startServer with the current settings). */
  start(): Promise<RunningServer>;
  policy?: Partial<SupervisorPolicy>;
  now?: () => number;
  /** One line per decision, for the log file. */
  log?: (line: string) => void;
}

export interface Supervisor {
  readonly state: ServerState;
  readonly policy: SupervisorPolicy;
  /** The running server, or null. */
  server(): RunningServer | null;
  onState(listener: (state: ServerState) => void): void;
  /** Starts supervising (no-op when already started). */
  start(): void;
  /** Stops the server and the restarts; resolves once the process is gone. */
  stop(timeoutMs?: number): Promise<void>;
  /** A person's restart (menu, tray, changed settings): forgets earlier crashes. */
  restart(): Promise<void>;
}

const exitReason = (code: number | null, reason?: string) =>
  reason !== undefined ? `the server could not be started: ${reason}` : code === null ? 'the server process was killed' : `the server exited with code ${code}`;

export function createSupervisor(deps: SupervisorDeps): Supervisor {
  const policy: SupervisorPolicy = { ...DEFAULT_POLICY, ...deps.policy };
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => undefined);
  const crashes = new CrashWindow(policy.maxCrashes, policy.windowMs);
  const listeners: ((state: ServerState) => void)[] = [];
  let state: ServerState = { kind: 'stopped' };
  let wanted = false;
  // Each start() or stop() begins a new generation; work of an older one ends quietly.
  let generation = 0;
  let restarts = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inflight: Promise<void> | null = null;

  const set = (next: ServerState) => {
    state = next;
    for (const l of listeners) l(next);
  };
  const current = (gen: number) => wanted && gen === generation;

  const later = (ms: number, gen: number, announce: boolean) => {
    timer = setTimeout(() => {
      timer = null;
      if (current(gen)) inflight = attempt(gen, announce);
    }, ms);
  };

  const crashed = (gen: number, reason: string, tail: string[]) => {
    const count = crashes.record(now());
    if (count >= policy.maxCrashes) {
      log(`${reason}; ${count} crashes within ${Math.round(policy.windowMs / 1000)} s: not restarting it again`);
      return set({ kind: 'failed', crashes: count, reason, tail });
    }
    restarts += 1;
    const wait = policy.backoffMs[Math.min(count, policy.backoffMs.length) - 1] ?? 0;
    log(`${reason}; restarting it in ${wait} ms (crash ${count} of at most ${policy.maxCrashes - 1} within ${Math.round(policy.windowMs / 1000)} s)`);
    set({ kind: 'waiting', restarts, crashes: count, retryInMs: wait, reason, tail });
    later(wait, gen, true);
  };

  /** One start; `announce` false keeps the port-in-use state on screen while its port is tried again. */
  const attempt = async (gen: number, announce: boolean): Promise<void> => {
    if (announce) set({ kind: 'starting', restarts });
    let server: RunningServer;
    try {
      server = await deps.start();
    } catch (error) {
      if (!current(gen)) return;
      if (error instanceof ServerStartError && error.portInUse) {
        const port = error.port ?? 0;
        // Said once: the next tries of the same port change nothing on screen or in the log.
        if (state.kind !== 'port-in-use' || state.port !== port) {
          log(`${error.tail.join(' ')}; trying port ${port} again every ${policy.portRetryMs} ms`);
          set({ kind: 'port-in-use', port, retryInMs: policy.portRetryMs, tail: error.tail });
        }
        return later(policy.portRetryMs, gen, false);
      }
      const tail = error instanceof ServerStartError ? error.tail : [];
      return crashed(gen, (error as Error).message, tail);
    }
    // Stopped (or restarted) while it was starting: this one is not wanted any more.
    if (!current(gen)) return void (await server.stop());
    set({ kind: 'running', server, restarts });
    void server.exited.then(({ code, reason }) => {
      // An exit the supervisor asked for (stop, restart) belongs to an older generation.
      if (!current(gen)) return;
      crashed(gen, exitReason(code, reason), server.stderrTail().length > 0 ? server.stderrTail() : server.stdoutTail());
    });
  };

  const stop = async (timeoutMs = 10_000): Promise<void> => {
    wanted = false;
    generation += 1;
    if (timer) clearTimeout(timer);
    timer = null;
    const running = state.kind === 'running' ? state.server : null;
    await inflight;
    if (running) await running.stop(timeoutMs);
    set({ kind: 'stopped' });
  };

  const start = () => {
    if (wanted) return;
    wanted = true;
    generation += 1;
    restarts = 0;
    crashes.reset();
    inflight = attempt(generation, true);
  };

  return {
    get state() {
      return state;
    },
    policy,
    server: () => (state.kind === 'running' ? state.server : null),
    onState: (listener) => void listeners.push(listener),
    start,
    stop,
    async restart() {
      await stop();
      start();
    },
  };
}
