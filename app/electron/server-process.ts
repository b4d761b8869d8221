// The store server in its own process: `serve` of the compiled CLI (dist/main.js), the
// same program `npx pos-backoffice serve` runs. Ready means it printed its {"ready":true,...}
// line (server/cli/commands.ts serve()).
//
// Under Electron it is Electron's own binary run as Node (ELECTRON_RUN_AS_NODE=1), not a
// utilityProcess: a utilityProcess takes its V8 flags from Chromium's switches, so the server's
// flags in execArgv only showed in process.execArgv and never reached V8, and its environment
// reaches glibc only if set before the process starts. As Node, the flags on the command line and
// MALLOC_MMAP_THRESHOLD_ in the environment work as under `node` (server/process-options.ts).
// What a utilityProcess gave for free, ending with the app, server-guard.cts gives back.
import { spawn as spawnChild } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SERVER_NODE_FLAGS } from './server-options.js';

export interface ServerChild {
  /** The process id, when it started. */
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** Graceful: the server closes its database and exits 0. Force: SIGKILL. */
  kill(force: boolean): void;
  /** Called once when the process is gone; `reason` when it never started (e.g. ENOENT). */
  onExit(listener: (code: number | null, reason?: string) => void): void;
}

/** Starts `<server main> ...args`. */
export type Spawner = (args: string[]) => ServerChild;

export interface SpawnerOptions {
  /** The program: Node in tests, Electron's binary in the app (with runAsNode). */
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  /** ELECTRON_RUN_AS_NODE=1: Electron's binary behaves as plain Node. */
  runAsNode?: boolean;
  /**
   * server-guard.cjs, preloaded into the child (`--require`), which gets a stdin pipe from this
   * process: the server stops when that pipe closes, i.e. when the app ends, even by a crash.
   * Only for `serve`: a one-shot command has nothing to guard.
   */
  guard?: string;
  platform?: NodeJS.Platform;
}

/** A Node child process (Node, or Electron as Node) started with the server's Node flags. */
export function childProcessSpawner(serverMain: string, opts: SpawnerOptions = {}): Spawner {
  const platform = opts.platform ?? process.platform;
  return (args) => {
    const env = { ...(opts.env ?? process.env), ...(opts.runAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}) };
    const preload = opts.guard ? ['--require', opts.guard] : [];
    const child = spawnChild(opts.execPath ?? process.execPath, [...SERVER_NODE_FLAGS, ...preload, serverMain, ...args], {
      env,
      stdio: [opts.guard ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let done = false;
    const listeners: ((code: number | null, reason?: string) => void)[] = [];
    const finish = (code: number | null, reason?: string) => {
      if (done) return;
      done = true;
      for (const l of listeners) l(code, reason);
    };
    child.once('exit', (code) => finish(code));
    child.once('error', (error) => finish(null, error.message));
    // The guard's pipe closing is the graceful stop; a write into a pipe the child closed is no error.
    child.stdin?.on('error', () => undefined);
    return {
      pid: child.pid,
      stdout: child.stdout,
      stderr: child.stderr,
      kill: (force) => {
        if (force) return void child.kill('SIGKILL');
        child.stdin?.end();
        // Windows has no SIGTERM: kill() there ends the process at once, so the closed pipe is the only graceful stop.
        if (!(opts.guard && platform === 'win32')) child.kill('SIGTERM');
      },
      onExit: (l) => void listeners.push(l),
    };
  };
}

/** The origin the window loads: a wildcard listener is reached through the loopback address. */
export function localOrigin(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]' || host === 'localhost') return `http://127.0.0.1:${port}`;
  if (host.includes(':')) return `http://[${host.replace(/^\[|\]$/g, '')}]:${port}`;
  return `http://${host}:${port}`;
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
    /** The port it was started on. */
    readonly port?: number,
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
  /**
   * A line after which the ready wait has no time limit: the server says it is working, not
   * stuck (startup-lines.ts: the migration of a big database may take minutes).
   */
  liftsTimeout?: (line: string) => boolean;
  tailLines?: number;
}

export interface RunningServer {
  readonly pid: number | undefined;
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
        fail(new ServerStartError('timeout', `the server did not report that it is listening within ${Math.round(opts.readyTimeoutMs / 1000)} s`, null, err.get(), out.get(), opts.port)),
      );
    }, opts.readyTimeoutMs);

    follow(child.stderr, 'stderr', err.push);
    follow(child.stdout, 'stdout', (line) => {
      if (!settled && opts.liftsTimeout?.(line)) clearTimeout(timer);
      const ready = settled ? null : parseReadyLine(line);
      if (!ready) return out.push(line);
      settled = true;
      clearTimeout(timer);
      const origin = localOrigin(opts.host, opts.port);
      resolve({
        pid: child.pid,
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
      fail(new ServerStartError('exited', message, code, err.get(), out.get(), opts.port));
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
