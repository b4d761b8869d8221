// `npm run electron [-- --demo] [-- --no-build]`: the desktop app from the working tree.
// Checks Node (@electron/rebuild needs 22.12+), fetches the Electron binary if missing (needs a
// network), compiles server, UI and shell, puts better-sqlite3's Electron build in place (the
// server runs as Electron-as-Node, so it needs Electron's ABI; built once per Electron version
// and cached), starts Electron on dist/electron, and puts the Node build back when Electron ends,
// so `npm test` and `npm start` work again. Arguments other than --no-build go to the app.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  compileShell,
  electronRebuild,
  electronVersion,
  ensureElectronBinary,
  fail,
  missingOutputs,
  nativeModules,
  requireRebuildNode,
  ROOT,
  runNode,
  SHELL_OUT,
  useElectronBuilds,
  writeDevPackageJson,
} from './electron-tools.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const skipBuild = args.includes('--no-build');
const appArgs = args.filter((a) => a !== '--no-build');

requireRebuildNode('npm run electron');
const electron = ensureElectronBinary('npm run electron');
if (!skipBuild) runNode([join(ROOT, 'build', 'compile.mjs')], 'building the server and UI (build/compile.mjs)');
compileShell();
writeDevPackageJson();
const missing = missingOutputs({ ui: false });
if (missing.length > 0) fail(`npm run electron: missing ${missing.join(', ')}; run without --no-build`);
if (missingOutputs({ ui: true }).length > 0) console.warn('npm run electron: dist/ui is not built; the window will show the server\'s "UI not built" answer');

const version = electronVersion();
let restore;
try {
  restore = await useElectronBuilds(ROOT, nativeModules(require(join(ROOT, 'build', 'electron-builder.config.cjs'))), version, await electronRebuild());
} catch (error) {
  fail(`npm run electron: better-sqlite3 could not be built for Electron ${version}: ${error?.message ?? error}\n  The Node build was left in place.`);
}

// A variable that turns Electron into plain Node must not reach the app.
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electron, [SHELL_OUT, ...appArgs], { cwd: ROOT, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  restore();
  console.log('npm run electron: better-sqlite3 is built for Node again');
  process.exit(code ?? (signal ? 1 : 0));
});
