// The store server in its own process: `serve` of the compiled CLI (dist/server/main.js), the
// same program `npx pos-backoffice serve` runs. Ready means it printed its {"ready":true,...}
// line (server/cli/commands.ts serve()). Electron runs it in a utilityProcess, Node (tests, the
// fallback) in a child process; both are seen through ServerChild.
import { spawn as spawnChild } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SERVER_NODE_FLAGS } from './server-options.js';
import { localOrigin } from './settings.js';

export interface ServerChild {
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** Graceful: SIGTERM (the server closes its database and exits 0). Force: SIGKILL. */
  kill(force: boolean): void;
  /** Called once when the process is gone; `reason` when it never started (e.g. ENOENT). */
  onExit(listener: (code: number | null, reason?: string) => void): void;
}

/** Starts `<server main> ...args`. */
export type Spawner = (args: string[]) => ServerChild;

/** Node's child_process: tests, and Electron without utilityProcess (then runAsNode). */
export function childProcessSpawner(serverMain: string, opts: { execPath?: string; env?: NodeJS.ProcessEnv; runAsNode?: boolean } = {}): Spawner {
  return (args) => {
    const env = { ...(opts.env ?? process.env), ...(opts.runAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}) };
    const child = spawnChild(opts.execPath ?? process.execPath, [...SERVER_NODE_FLAGS, serverMain, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let done = false;
    const listeners: ((code: number | null, reason?: string) => void)[] = [];
    const finish = (code: number | null, reason?: string) => {
      if (done) return;
      done = true;
      for (const l of listeners) l(code, reason);
    };
    child.once('exit', (code) => finish(code));
    child.once('error', (error) => finish(null, error.message));
    return {
      stdout: child.stdout,
      stderr: child.stderr,
      kill: (force) => void child.kill(force ? 'SIGKILL' : 'SIGTERM'),
      onExit: (l) => void listeners.push(l),
    };
  };
}

/** The part of Electron's UtilityProcess used here (typed structurally: no Electron import). */
export interface UtilityLike {
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  readonly pid: number | undefined;
  kill(): boolean;
  once(event: 'exit', listener: (code: number) => void): unknown;
}

/** utilityProcess.kill() only sends SIGTERM; forcing goes through the pid. */
export function fromUtilityProcess(child: UtilityLike, killPid: (pid: number) => void = (pid) => process.kill(pid, 'SIGKILL')): ServerChild {
  const stdout = child.stdout;
  const stderr = child.stderr;
  return {
    stdout,
    stderr,
    kill: (force) => {
      if (!force) return void child.kill();
      if (child.pid !== undefined) {
        try {
          killPid(child.pid);
        } catch {
          // Already gone.
        }
      }
    },
    onExit: (l) => void child.once('exit', (code) => l(code)),
  };
}

export interface ReadyLine {
  ready: true;
  url: string;
  ui?: string;
  version?: string;
  role?: string;
  dataDir?: string;
  contracts?: { contractId: string }[];
}

/** The ready line, or null for any other line (the server's JSON log lines included). */
export function parseReadyLine(line: string): ReadyLine | null {
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    return value.ready === true && typeof value.url === 'string' ? (value as unknown as ReadyLine) : null;
  } catch {
    return null;
  }
}

export class ServerStartError extends Error {
  constructor(
    readonly reason: 'timeout' | 'exited',
    message: string,
    readonly exitCode: number | null,
    readonly stderrTail: string[],
    readonly stdoutTail: string[],
  ) {
    super(message);
    this.name = 'ServerStartError';
  }

  /** The last lines that explain it: stderr, or the log on stdout when stderr said nothing. */
  get tail(): string[] {
    return this.stderrTail.length > 0 ? this.stderrTail : this.stdoutTail;
  }

  /** The server refused a port another program holds (serve's own message). */
  get portInUse(): boolean {
    return this.reason === 'exited' && this.stderrTail.some((l) => l.includes('is already in use'));
  }
}

export interface StartOptions {
  spawn: Spawner;
  dataDir: string;
  port: number;
  host: string;
  demo?: boolean;
  uiLan?: boolean;
  readyTimeoutMs: number;
  /** Every output line (for the log file). */
  onLine?: (stream: 'stdout' | 'stderr', line: string) => void;
  tailLines?: number;
}

export interface RunningServer {
  readonly port: number;
  readonly origin: string;
  readonly uiUrl: string;
  readonly ready: ReadyLine;
  /** Settles when the process ends, expected or not. */
  readonly exited: Promise<{ code: number | null; reason?: string }>;
  isRunning(): boolean;
  stderrTail(): string[];
  stdoutTail(): string[];
  /** SIGTERM, then SIGKILL after timeoutMs. */
  stop(timeoutMs?: number): Promise<'stopped' | 'killed' | 'not-running'>;
}

export function serveArgs(o: Pick<StartOptions, 'dataDir' | 'port' | 'host' | 'demo' | 'uiLan'>): string[] {
  return ['serve', '--port', String(o.port), '--host', o.host, '--data-dir', o.dataDir, ...(o.demo ? ['--demo'] : []), ...(o.uiLan ? ['--ui-lan'] : [])];
}

const delay = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * Settles when both pipes are read to the end: the last stderr lines may trail the exit event.
 * Listen from the start; after the exit, wait for it a moment only (see afterExit).
 */
function pipesEnded(child: ServerChild): Promise<unknown> {
  const ended = (s: NodeJS.ReadableStream | null) => (s ? new Promise<void>((resolve) => (s.once('end', resolve), s.once('close', resolve))) : undefined);
  return Promise.all([ended(child.stdout), ended(child.stderr)]);
}
const afterExit = (ended: Promise<unknown>) => Promise.race([ended, delay(1_000)]);

function tailKeeper(max: number) {
  const lines: string[] = [];
  return { push: (l: string) => void (lines.push(l) > max && lines.shift()), get: () => [...lines] };
}

/** Starts the server and resolves when it is listening; rejects with ServerStartError otherwise. */
export function startServer(opts: StartOptions): Promise<RunningServer> {
  const max = opts.tailLines ?? 20;
  const out = tailKeeper(max);
  const err = tailKeeper(max);
  const child = opts.spawn(serveArgs(opts));
  let running = true;
  const exited = new Promise<{ code: number | null; reason?: string }>((resolve) =>
    child.onExit((code, reason) => {
      running = false;
      resolve(reason === undefined ? { code } : { code, reason });
    }),
  );
  // Read to the end even after ready: a full pipe would block the server's logging.
  const follow = (stream: NodeJS.ReadableStream | null, name: 'stdout' | 'stderr', onLine: (line: string) => void) => {
    if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      opts.onLine?.(name, line);
      onLine(line);
    });
  };

  const stop = async (timeoutMs = 10_000): Promise<'stopped' | 'killed' | 'not-running'> => {
    if (!running) return 'not-running';
    child.kill(false);
    if ((await Promise.race([exited, delay(timeoutMs)])) !== 'timeout') return 'stopped';
    child.kill(true);
    await Promise.race([exited, delay(5_000)]);
    return 'killed';
  };

  const ended = pipesEnded(child);
  return new Promise<RunningServer>((resolve, reject) => {
    let settled = false;
    let timingOut = false;
    const fail = (error: ServerStartError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(() => {
      timingOut = true;
      // Stopped before reporting, so no server is left behind the error window.
      void stop(3_000).then(() =>
        fail(new ServerStartError('timeout', `the server did not report that it is listening within ${Math.round(opts.readyTimeoutMs / 1000)} s`, null, err.get(), out.get())),
      );
    }, opts.readyTimeoutMs);

    follow(child.stderr, 'stderr', err.push);
    follow(child.stdout, 'stdout', (line) => {
      const ready = settled ? null : parseReadyLine(line);
      if (!ready) return out.push(line);
      settled = true;
      clearTimeout(timer);
      const origin = localOrigin(opts.host, opts.port);
      resolve({
        port: opts.port,
        origin,
        uiUrl: `${origin}/ui/`,
        ready,
        exited,
        isRunning: () => running,
        stderrTail: err.get,
        stdoutTail: out.get,
        stop,
      });
    });
    void exited.then(async ({ code, reason }) => {
      if (settled || timingOut) return;
      await afterExit(ended);
      const message =
        reason !== undefined
          ? `the server could not be started: ${reason}`
          : `the server stopped before it was ready: it ${code === null ? 'was killed' : `exited with code ${code}`}`;
      fail(new ServerStartError('exited', message, code, err.get(), out.get()));
    });
  });
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a one-shot CLI command (e.g. `sync status`) through the same spawner, bounded. */
export function runOnce(spawn: Spawner, args: string[], timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(args);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (chunk: Buffer | string) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer | string) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill(true);
    }, timeoutMs);
    const ended = pipesEnded(child);
    child.onExit((code, reason) => {
      clearTimeout(timer);
      void afterExit(ended).then(() => resolve({ code, stdout, stderr: reason ? `${stderr}${reason}\n` : stderr, timedOut }));
    });
  });
}
