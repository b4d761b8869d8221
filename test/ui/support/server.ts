import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDistBuilt, ROOT } from './build.js';

/** One demo contract as `serve --demo` prints it in its ready line. */
export interface DemoContract {
  contractId: string;
  plan: string;
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  staffUsername: string;
  staffPassword: string;
}

export interface UiServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>/ui/` */
  uiUrl: string;
  dataDir: string;
  contracts: DemoContract[];
  contract(id: string): DemoContract;
  /** Everything the server wrote, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * A real store server with the demo data, as `npm start` runs it: the compiled CLI
 * (`node dist/main.js serve --demo --port 0`) on a fresh data dir, built first when
 * dist/ is missing or stale. Call it in beforeAll with a long timeout (a build takes ~20 s).
 */
export async function startUiServer(options: { env?: Record<string, string>; args?: string[]; /** false: a fresh data dir as the first start finds it (no contract). */ demo?: boolean } = {}): Promise<UiServer> {
  await ensureDistBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-ui-test-'));
  const demo = options.demo === false ? [] : ['--demo'];
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js'), 'serve', ...demo, '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, POS_LOG_LEVEL: 'warn', POS_HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const stop = () => stopChild(child).finally(() => rmSync(dataDir, { recursive: true, force: true }));
  let ready: { url: string; contracts: DemoContract[] };
  try {
    ready = await readyLine(child, () => out);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: ready.url,
    uiUrl: `${ready.url}/ui/`,
    dataDir,
    contracts: ready.contracts,
    contract(id) {
      const found = ready.contracts.find((c) => c.contractId === id);
      if (!found) throw new Error(`no demo contract ${id}: ${ready.contracts.map((c) => c.contractId).join(', ')}`);
      return found;
    },
    output: () => out,
    stop,
  };
}

function readyLine(child: ChildProcess, output: () => string): Promise<{ url: string; contracts: DemoContract[] }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`serve was not ready in ${READY_TIMEOUT_MS} ms:\n${output()}`)), READY_TIMEOUT_MS);
    const onData = () => {
      const line = output().split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) finish(undefined, JSON.parse(line));
    };
    const onExit = (code: number | null) => finish(new Error(`serve exited (${code}) before it was ready:\n${output()}`));
    function finish(error?: Error, value?: { url: string; contracts: DemoContract[] }) {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value!);
    }
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** SIGTERM, then SIGKILL if the server has not exited within 5 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
