// Compiles the TypeScript server to dist/ and bundles the SQL migrations beside the
// compiled migrator, so `npx pos-backoffice` works right after `npm install` (prepare).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, chmodSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// --out-dir DIR (relative to the project) lets tests build a private copy beside dist/.
const outArg = process.argv.indexOf('--out-dir');
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
