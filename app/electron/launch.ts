// Start-up as one plain function: folders, log, settings, the port (chosen at the first start,
// then kept), and the supervised server. main.ts calls it with Electron's paths and spawner.
import { logLine, RotatingLog } from './log-file.js';
import { desktopPaths, ensureFolders, type DesktopPaths } from './paths.js';
import { choosePort, type PortChoice } from './port.js';
import { startServer, type Spawner } from './server-process.js';
import { parseMigratingLine } from './startup-lines.js';
import { loadSettings, saveSettings, serverHost, settingsChange, type DesktopSettings, type SettingsChange } from './settings.js';
import { createSupervisor, type Supervisor, type SupervisorPolicy } from './supervisor.js';

export interface LaunchOptions {
  /** Starts `serve` (server-process.ts childProcessSpawner, with the guard in the app). */
  spawn: Spawner;
  userData: string;
  demo: boolean;
  /** Overrides the settings' readyTimeoutSeconds (tests). */
  readyTimeoutMs?: number;
  defaultPort?: number;
  policy?: Partial<SupervisorPolicy>;
  /** Every line the server prints, after the log has it (the start-up page reads the migration's). */
  onLine?: (stream: 'stdout' | 'stderr', line: string) => void;
}

export interface Launched {
  supervisor: Supervisor;
  paths: DesktopPaths;
  log: RotatingLog;
  /** The first start's port choice. */
  port: PortChoice;
  /** The settings the server runs with. */
  settings(): DesktopSettings;
  /** Reads the file again and applies it: a new port or LAN access restarts the server. */
  reloadSettings(): Promise<SettingsChange>;
}

/** `--demo` on the app's command line or POS_DEMO=1: seed the demo contracts (app/README.md). */
export function wantsDemo(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes('--demo') || env.POS_DEMO === '1' || env.POS_DEMO === 'true';
}

/** Starts supervising the server and returns at once; the supervisor's states tell what follows. */
export async function launch(opts: LaunchOptions): Promise<Launched> {
  const paths = desktopPaths(opts.userData);
  ensureFolders(paths);
  const log = new RotatingLog(paths.logFile);
  const note = (line: string) => log.write(logLine('shell', line));
  const loaded = loadSettings(paths.settingsFile);
  for (const p of loaded.problems) note(`settings: ${p}`);
  let settings = loaded.settings;

  const port = await choosePort({ host: serverHost(settings), ...(settings.port !== undefined ? { saved: settings.port } : {}), ...(opts.defaultPort !== undefined ? { defaultPort: opts.defaultPort } : {}) });
  // Saved at once: the set-up's choice is the port from now on, whatever happens next. A file
  // of the earlier format is rewritten in this one (a broken file is left for a person to see).
  if (port.save || loaded.oldFormat) {
    settings = { ...settings, port: port.port };
    saveSettings(paths.settingsFile, settings);
  }

  const supervisor = createSupervisor({
    policy: opts.policy ?? {},
    log: note,
    start: () => {
      const host = serverHost(settings);
      note(`starting the server on ${host}:${settings.port} (${settings.lan ? 'LAN' : 'this PC only'}${settings.uiLan ? ', UI on the LAN' : ''}), data ${paths.dataDir}${opts.demo ? ', demo' : ''}`);
      return startServer({
        spawn: opts.spawn,
        dataDir: paths.dataDir,
        port: settings.port ?? port.port,
        host,
        demo: opts.demo,
        uiLan: settings.uiLan,
        readyTimeoutMs: opts.readyTimeoutMs ?? settings.readyTimeoutSeconds * 1000,
        liftsTimeout: (line) => parseMigratingLine(line) !== null,
        onLine: (stream, line) => {
          log.write(logLine(stream, line));
          opts.onLine?.(stream, line);
        },
      }).then((server) => (note(`server ready at ${server.uiUrl}`), server));
    },
  });
  supervisor.start();

  return {
    supervisor,
    paths,
    log,
    port,
    settings: () => settings,
    async reloadSettings() {
      const next = loadSettings(paths.settingsFile);
      for (const p of next.problems) note(`settings: ${p}`);
      // A port removed from the file by hand is not a new set-up: the terminals know this one.
      const after: DesktopSettings = { ...next.settings, port: next.settings.port ?? settings.port ?? port.port };
      const change = settingsChange(settings, after);
      settings = after;
      if (change.restartServer) {
        note(`settings changed: restarting the server on ${serverHost(settings)}:${settings.port}`);
        await supervisor.restart();
      }
      return change;
    },
  };
}
