// Start-up as one plain function: folders, settings, port, server, with the one retry a port
// taken between the check and the listen needs. main.ts calls it with Electron's paths.
import { appendFileSync } from 'node:fs';
import { desktopPaths, ensureFolders, rotateLog, type DesktopPaths } from './paths.js';
import { choosePort, freePort, type PortChoice } from './port.js';
import { startServer, ServerStartError, type RunningServer, type Spawner } from './server-process.js';
import { loadSettings, saveSettings, type DesktopSettings } from './settings.js';

export interface LaunchOptions {
  spawn: Spawner;
  userData: string;
  demo: boolean;
  /** Overrides the settings' readyTimeoutSeconds (tests). */
  readyTimeoutMs?: number;
  defaultPort?: number;
}

export interface Launched {
  server: RunningServer;
  paths: DesktopPaths;
  settings: DesktopSettings;
  port: PortChoice;
}

/** `--demo` on the app's command line or POS_DEMO=1: seed the demo contracts (app/README.md). */
export function wantsDemo(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes('--demo') || env.POS_DEMO === '1' || env.POS_DEMO === 'true';
}

/** A line of the server log: time, stream, text. */
function logger(file: string) {
  return (stream: 'stdout' | 'stderr' | 'shell', line: string) => {
    try {
      appendFileSync(file, `${new Date().toISOString()} ${stream} ${line}\n`, { mode: 0o600 });
    } catch {
      // A full disk must not stop the server; the log is only for support.
    }
  };
}

/** Throws ServerStartError (with the server's last lines) when the server does not come up. */
export async function launch(opts: LaunchOptions): Promise<Launched> {
  const paths = desktopPaths(opts.userData);
  ensureFolders(paths);
  rotateLog(paths.logFile);
  const log = logger(paths.logFile);
  const { settings, problems } = loadSettings(paths.settingsFile);
  for (const p of problems) log('shell', `settings: ${p}`);

  const portChoice = await choosePort({ host: settings.host, ...(settings.port !== undefined ? { saved: settings.port } : {}), ...(opts.defaultPort !== undefined ? { defaultPort: opts.defaultPort } : {}) });
  const start = (port: number) =>
    startServer({
      spawn: opts.spawn,
      dataDir: paths.dataDir,
      port,
      host: settings.host,
      demo: opts.demo,
      uiLan: settings.uiLan,
      readyTimeoutMs: opts.readyTimeoutMs ?? settings.readyTimeoutSeconds * 1000,
      onLine: log,
    });
  log('shell', `starting the server on ${settings.host}:${portChoice.port} (${portChoice.source}), data ${paths.dataDir}${opts.demo ? ', demo' : ''}`);

  let server: RunningServer;
  let port = portChoice;
  try {
    server = await start(portChoice.port);
  } catch (error) {
    // Another program took the port between our check and the server's listen: once more.
    if (!(error instanceof ServerStartError && error.portInUse)) throw error;
    port = { port: await freePort(settings.host), source: 'free', save: portChoice.save };
    log('shell', `port ${portChoice.port} was taken; retrying on ${port.port}`);
    server = await start(port.port);
  }
  if (port.save) {
    settings.port = port.port;
    saveSettings(paths.settingsFile, settings);
  }
  log('shell', `server ready at ${server.uiUrl}`);
  return { server, paths, settings, port };
}
