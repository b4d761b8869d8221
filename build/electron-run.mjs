// `npm run electron [-- --demo] [-- --no-build]`: the desktop app from the working tree.
// Fetches the Electron binary if missing (needs a network), compiles server, UI and shell,
// and starts Electron on dist/electron. Arguments other than --no-build go to the app.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { compileShell, ensureElectronBinary, missingOutputs, ROOT, runNode, SHELL_OUT, writeDevPackageJson } from './electron-tools.mjs';

const args = process.argv.slice(2);
const skipBuild = args.includes('--no-build');
const appArgs = args.filter((a) => a !== '--no-build');

const electron = ensureElectronBinary('npm run electron');
if (!skipBuild) runNode([join(ROOT, 'build', 'compile.mjs')], 'building the server and UI (build/compile.mjs)');
compileShell();
writeDevPackageJson();
const missing = missingOutputs({ ui: false });
if (missing.length > 0) {
  console.error(`npm run electron: missing ${missing.join(', ')}; run without --no-build`);
  process.exit(1);
}
if (missingOutputs({ ui: true }).length > 0) console.warn('npm run electron: dist/ui is not built; the window will show the server\'s "UI not built" answer');

// A variable that turns Electron into plain Node must not reach the app.
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electron, [SHELL_OUT, ...appArgs], { cwd: ROOT, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
