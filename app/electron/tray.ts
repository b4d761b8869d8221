// The tray (menu-bar) icon: the app lives there while the window is closed, so it says at a
// glance whether the terminals' server runs, whether head office is reachable and how much waits
// to be sent, and where the terminals connect. main.ts turns this model into Electron's Tray.
import type { Messages } from './messages.js';
import type { BackupLog } from './backups.js';
import type { OutboxSummary } from './outbox.js';
import type { ServerState } from './supervisor.js';

/** ok: serving and in touch; warn: starting, restarting, offline from head office; error: not serving. */
export type TrayIcon = 'ok' | 'warn' | 'error';
export type TrayAction = 'open' | 'settings' | 'restart-server' | 'backup-now' | 'quit';
export type TrayItem = { label: string; action?: TrayAction; enabled: boolean } | 'separator';

export interface TrayModel {
  icon: TrayIcon;
  tooltip: string;
  items: TrayItem[];
}

export interface TrayInput {
  server: ServerState;
  /** The last `sync status` read; undefined before the first, null when it could not be read. */
  outbox: OutboxSummary | null | undefined;
  lan: boolean;
  /** terminalUrls(): where the terminals connect. */
  terminalUrls: readonly string[];
  /** backups.json (backups.ts), read after each backup; undefined before the first read. */
  backups?: BackupLog | undefined;
  /** The server printed its migrating line and is updating the database. */
  migrating?: boolean;
  /** A date-time as the tray shows it (the system's locale). */
  formatTime?: (iso: string) => string;
}

/** The last backup, or the failure since it. */
export function backupLine(log: BackupLog, t: Messages, formatTime: (iso: string) => string): string {
  const last = log.made.map((m) => m.createdAt).sort().at(-1) ?? null;
  if (log.lastError && (last === null || Date.parse(log.lastError.at) > Date.parse(last))) return t.backupFailed(log.lastError.message);
  return last === null ? t.backupNever : t.backupLast(formatTime(last));
}

export function serverLine(state: ServerState, t: Messages): string {
  switch (state.kind) {
    case 'starting':
      return t.serverStarting + (state.restarts > 0 ? t.restarted(state.restarts) : '');
    case 'running':
      return t.serverRunning(state.server.port) + (state.restarts > 0 ? t.restarted(state.restarts) : '');
    case 'waiting':
      return t.serverWaiting(Math.ceil(state.retryInMs / 1000));
    case 'port-in-use':
      return t.serverPortInUse(state.port);
    case 'failed':
      return t.serverFailed;
    case 'stopped':
      return t.serverStopped;
  }
}

function syncLine(outbox: OutboxSummary | null, t: Messages): string {
  if (outbox === null) return t.syncUnknown;
  if (outbox.linkedContracts === 0) return t.syncNotLinked;
  return outbox.online ? t.syncOnline(outbox.depth) : t.syncOffline(outbox.depth);
}

function icon(input: TrayInput): TrayIcon {
  const { server, outbox } = input;
  if (server.kind === 'failed' || server.kind === 'port-in-use' || server.kind === 'stopped') return 'error';
  if (server.kind !== 'running') return 'warn';
  return outbox && outbox.linkedContracts > 0 && outbox.online === false ? 'warn' : 'ok';
}

export function trayModel(input: TrayInput, t: Messages): TrayModel {
  const running = input.server.kind === 'running';
  const status = (label: string): TrayItem => ({ label, enabled: false });
  const server = input.migrating && input.server.kind === 'starting' ? t.serverMigrating : serverLine(input.server, t);
  const lines: TrayItem[] = [status(server)];
  if (running && input.outbox !== undefined) lines.push(status(syncLine(input.outbox, t)));
  if (!input.lan) lines.push(status(t.lanOff));
  else if (input.terminalUrls.length === 0) lines.push(status(t.lanNoAddress));
  else for (const url of input.terminalUrls.slice(0, 3)) lines.push(status(t.terminalsAt(url)));
  if (input.backups) lines.push(status(backupLine(input.backups, t, input.formatTime ?? ((iso) => iso))));
  return {
    icon: icon(input),
    tooltip: `${t.appMenu}: ${server}`,
    items: [
      { label: t.openWindow, action: 'open', enabled: true },
      // The settings screen is a page of the server's UI.
      { label: t.settings, action: 'settings', enabled: running },
      'separator',
      ...lines,
      'separator',
      // Starting takes its course; every other state can be started over.
      { label: t.restartServer, action: 'restart-server', enabled: input.server.kind !== 'starting' },
      // The server's CLI makes it from the data folder, with or without a running server.
      { label: t.backupNow, action: 'backup-now', enabled: true },
      'separator',
      { label: t.quit, action: 'quit', enabled: true },
    ],
  };
}
