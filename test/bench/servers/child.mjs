// The parent side of a benchmarked server, shared by ours.mjs and bare.mjs: it reports
// readiness over IPC, measures the process's own CPU time between two parent messages
// (to tell whether the server or the load generator was the bottleneck) and shuts down
// cleanly on request, on SIGTERM or when the parent goes away, so no child outlives a run.
import { fileURLToPath } from 'node:url';

export const DIST = fileURLToPath(new URL('../../../dist/server/', import.meta.url));

/** Imports a compiled server module, e.g. distImport('deps.js'). */
export function distImport(path) {
  return import(new URL(`../../../dist/server/${path}`, import.meta.url).href);
}

export async function loadScenario(name) {
  const { scenarios } = await import('../scenarios.mjs');
  const scenario = scenarios.find((s) => s.name === name);
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  return scenario;
}

/** Wires IPC for a started server; `close` releases the app and the database. */
export function serveChild({ port, request, close, report }) {
  let cpuStart = null;
  let closing = false;
  const shutdown = async (code) => {
    if (closing) return;
    closing = true;
    // Never hang on close: the parent also escalates to SIGKILL, this is the child's own bound.
    setTimeout(() => process.exit(code), 3000).unref();
    try {
      await close();
    } catch (error) {
      console.error('bench server: close failed', error);
    }
    process.exit(code); // a normal exit, so --cpu-prof writes its profile
  };

  process.on('message', (msg) => {
    if (msg?.type === 'cpu-start') {
      cpuStart = { cpu: process.cpuUsage(), at: process.hrtime.bigint() };
    } else if (msg?.type === 'cpu-stop') {
      const cpu = process.cpuUsage(cpuStart?.cpu);
      const elapsedUs = Number(process.hrtime.bigint() - (cpuStart?.at ?? 0n)) / 1000;
      process.send({ type: 'cpu', user: cpu.user, system: cpu.system, elapsedUs, report: report?.() ?? null });
    } else if (msg?.type === 'stop') {
      void shutdown(0);
    }
  });
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('disconnect', () => void shutdown(0));
  process.send({ type: 'ready', port, request });
}

/** Reports a setup failure to the parent and exits. */
export function failChild(error) {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(message);
  setTimeout(() => process.exit(1), 1000).unref();
  try {
    if (process.send) process.send({ type: 'failed', message }, () => process.exit(1));
    else process.exit(1);
  } catch {
    process.exit(1); // the parent is gone already
  }
}
