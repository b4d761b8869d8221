// `npm run dist [-- --linux|--win|--mac|--dir ...]`: the installers, in release/.
// Needs Node 22.12+ (electron-builder's @electron/rebuild) and a network that can download
// Electron (and better-sqlite3's Electron build, or its headers).
// Steps: Node check, Electron binary, build (server, UI), shell, checks, electron-builder. The arguments go to
// electron-builder; without a platform flag it builds for this one (NSIS on Windows, dmg on
// macOS, AppImage and deb on Linux; a dmg can only be made on macOS).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compileShell, ensureElectronBinary, fail, keepNativeBuilds, missingOutputs, nativeModules, requireRebuildNode, ROOT, runNode } from './electron-tools.mjs';

const require = createRequire(import.meta.url);
const CONFIG = join(ROOT, 'build', 'electron-builder.config.cjs');
const args = process.argv.slice(2);

requireRebuildNode('npm run dist');
ensureElectronBinary('npm run dist');
runNode([join(ROOT, 'build', 'compile.mjs')], 'building the server and UI (build/compile.mjs)');
compileShell();
const missing = missingOutputs({ ui: true });
if (missing.length > 0) fail(`npm run dist: the build did not produce ${missing.join(', ')}`);

const restore = keepNativeBuilds(ROOT, nativeModules(require(CONFIG)));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    restore();
    process.exit(1);
  });
}

const builderArgs = ['--config', CONFIG, ...(args.some((a) => a === '-p' || a.startsWith('--publish')) ? [] : ['--publish', 'never']), ...args];
let status;
try {
  const cli = require.resolve('electron-builder/cli.js');
  status = spawnSync(process.execPath, [cli, ...builderArgs], { cwd: ROOT, stdio: 'inherit' }).status;
} finally {
  restore();
}
if (status !== 0) fail('npm run dist: electron-builder failed (see above)');
console.log('npm run dist: the installers are in release/');
