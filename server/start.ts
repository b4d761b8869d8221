// `npm start`: the CLI (the top-level main.js) in a child process started with the server's
// Node flags and environment (process-options.ts). A Node program cannot set those for itself
// once running, and the bin's #! line that does it on Linux and macOS is not read by
// `node main.js` or Windows.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS, withServerEnv } from './process-options.js';

const main = fileURLToPath(new URL('../main.js', import.meta.url));
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, main, ...process.argv.slice(2)], { stdio: 'inherit', env: withServerEnv(process.env) });

// A terminal's Ctrl-C reaches both processes; npm and `kill` reach only this one, so signals are
// passed on (the server ignores a repeated one). On Windows the console delivers Ctrl-C to the
// child itself, and child.kill() there would end it at once instead of closing its database.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
for (const signal of forwarded) {
  process.on(signal, () => {
    if (process.platform !== 'win32') child.kill(signal);
  });
}

child.once('error', (error) => {
  process.stderr.write(`pos-backoffice: cannot start the server: ${error.message}\n`);
  process.exit(1);
});
child.once('exit', (code, signal) => {
  if (signal) {
    // Ended by a signal: end the same way, so a caller sees what the server saw.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
