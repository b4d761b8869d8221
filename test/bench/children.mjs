// Starting, querying and stopping the benchmarked servers, each in its own child process
// (servers/ours.mjs, servers/bare.mjs) talking to the parent over IPC.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVERS_DIR = fileURLToPath(new URL('./servers/', import.meta.url));
export const READY_TIMEOUT_MS = 30_000;

const children = new Set();

/** Forks servers/<kind>.mjs (optionally under --cpu-prof) and resolves with { child, port, request } once it listens. */
export function startServer(kind, scenario, dir, { profileDir } = {}) {
  const execArgv = profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${scenario.name}-${kind}.cpuprofile`]
    : [];
  const child = fork(join(SERVERS_DIR, `${kind}.mjs`), [scenario.name, dir], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    const done = (fn) => (value) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      fn(value);
    };
    const ok = done(resolve);
    // A child that failed or hangs in setup is killed at once; nothing else would stop it.
    const fail = done((error) => {
      child.kill('SIGKILL');
      reject(error);
    });
    const onMessage = (msg) => {
      if (msg?.type === 'ready') ok({ child, port: msg.port, request: msg.request });
      else if (msg?.type === 'failed') fail(new Error(`${kind} server setup failed:\n${msg.message}`));
    };
    const onExit = (code, signal) => fail(new Error(`${kind} server exited during setup (${signal ?? code})`));
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Asks the child for its CPU use since the last cpu-start. */
export function askCpu(child) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      resolve(null);
    }, 5000);
    const onMessage = (msg) => {
      if (msg?.type !== 'cpu') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(msg);
    };
    child.on('message', onMessage);
    child.send({ type: 'cpu-stop' });
  });
}

/** Graceful stop (the child closes its app and database, and writes its profile), then SIGKILL. */
export function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
  });
}

export function killAll() {
  for (const child of children) child.kill('SIGKILL');
}
