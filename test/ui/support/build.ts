import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const OUTPUTS = ['dist/main.js', 'dist/ui/index.html'];
const SOURCES = ['server', 'sync', 'app/ui', 'build/compile.mjs', 'package.json'];
const LOCK = join(ROOT, 'node_modules/.cache/pos-ui-build.lock');
const LOCK_STALE_MS = 5 * 60_000;
const WAIT_MS = 240_000;

function newestMtime(path: string): number {
  const full = join(ROOT, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(full)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** dist/ is missing, or older than a source the browser tests run (server, sync, the UI). */
export function distIsStale(): boolean {
  const built = OUTPUTS.map((f) => join(ROOT, f));
  if (!built.every((f) => existsSync(f))) return true;
  const oldestOutput = Math.min(...built.map((f) => statSync(f).mtimeMs));
  return SOURCES.some((s) => newestMtime(s) > oldestOutput);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds dist/ (server + UI, build/compile.mjs) when it is missing or stale, once across the
 * test files vitest runs in parallel: a lock directory makes the others wait for the first.
 */
export async function ensureDistBuilt(): Promise<void> {
  if (!distIsStale()) return;
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A crashed run's lock does not block for ever.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > until) throw new Error(`another test run holds ${LOCK}; remove it if no build is running`);
      await sleep(500);
    }
  }
  try {
    if (distIsStale()) execFileSync(process.execPath, [join(ROOT, 'build/compile.mjs')], { cwd: ROOT, stdio: 'pipe', timeout: WAIT_MS });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
