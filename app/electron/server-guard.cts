// Preloaded into the server process by the desktop app (`--require`, server-process.ts). The app
// holds the other end of this process's stdin; when that pipe closes (the app stopped it, quit,
// or crashed) the server stops as on SIGTERM: it closes its database and exits. Without it a
// crashed app would leave a server holding the port, and the next start could not serve.
// CommonJS and free of packages, so plain Node loads it from app.asar.unpacked.
import workerThreads = require('node:worker_threads');

function stopServer(): void {
  // The server's own shutdown (server/cli/main.ts) listens for SIGTERM once it serves; before that
  // (opening and migrating the database) there is nothing to close but the process itself.
  if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM', 'SIGTERM');
  else process.exit(0);
}

// Worker threads inherit the process's --require, and a worker's stdin is empty and ends at
// once: there the guard would end the worker (the CSV export's) as soon as it starts.
if (workerThreads.isMainThread) {
  const input = process.stdin;
  input.once('end', stopServer);
  input.once('error', stopServer);
  // Nothing is sent on it; reading is what notices the end.
  input.on('data', () => undefined);
  input.resume();
  // The pipe must not keep an otherwise finished process alive.
  (input as unknown as { unref?: () => void }).unref?.();
}
