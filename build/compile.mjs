// Compiles the TypeScript server to dist/ and bundles the SQL migrations beside the
// compiled migrator, then builds the back-office UI (app/ui, Vite) into dist/ui, so
// `npx pos-backoffice` serves a working /ui right after `npm install` (prepare).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, chmodSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// --out-dir DIR (relative to the project) lets tests build a private copy of the server beside
// dist/; such a copy gets the UI only with --ui (those tests start servers, not browsers).
const outArg = process.argv.indexOf('--out-dir');
const withUi = outArg < 0 || process.argv.includes('--ui');
const outDir = join(root, outArg > 0 ? process.argv[outArg + 1] : 'dist');
const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  console.error('build: typescript is not installed; run `npm install` first');
  process.exit(1);
}

rmSync(outDir, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit', cwd: root });
} catch {
  console.error('build: the TypeScript compile failed (see above)');
  process.exit(1);
}
cpSync(join(root, 'server/db/migrations'), join(outDir, 'server/db/migrations'), { recursive: true });
const bin = join(outDir, 'server/main.js');
if (existsSync(bin)) chmodSync(bin, 0o755);

if (withUi) await buildUi();

async function buildUi() {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    // A production install (npm ci --omit=dev) has no Vite: the server then answers /ui with a 503 saying so.
    console.warn('build: vite is not installed; the back-office UI (dist/ui) was not built');
    return;
  }
  try {
    await vite.build({ configFile: join(root, 'app/ui/vite.config.ts'), build: { outDir: join(outDir, 'ui') }, logLevel: 'warn' });
  } catch (error) {
    console.error(`build: the UI build failed: ${error?.message ?? error}`);
    process.exit(1);
  }
}
