// The Electron main process: only wiring. Every decision lives in a plain module tested in Node
// (launch, supervisor, port, settings, server-process, outbox, quit, tray, window-policy,
// login-item, navigation, single-instance, pages, log-file).
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, powerMonitor, session, shell, Tray } from 'electron';
import type { IpcMainInvokeEvent, MenuItemConstructorOptions, WebPreferences } from 'electron';
import { watchFile } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backupFolder, backupLogFile, dailyBackup, loadBackupLog, restoreBackup, runBackup, scheduleBackups, type BackupLog } from './backups.js';
import { CHANNELS, type DesktopInfo } from './bridge.js';
import { CrashWindow } from './crash-window.js';
import { launch, wantsDemo, type Launched } from './launch.js';
import { terminalUrls } from './lan.js';
import { logLine, readLogTail } from './log-file.js';
import { applyAutostart, loginItemPlan, startsHidden } from './login-item.js';
import { formatAge, messagesFor } from './messages.js';
import { classifyNavigation, isPermissionAllowed, isTrustedSender } from './navigation.js';
import { readOutbox, type OutboxSummary } from './outbox.js';
import { dataUrl, errorPage, migratingPage, startingPage } from './pages.js';
import { desktopPaths, unpackedPath } from './paths.js';
import { suggestPort } from './port.js';
import { createQuitFlow } from './quit.js';
import { childProcessSpawner } from './server-process.js';
import { backupSettings, loadSettings, saveSettings, serverEnv, serverHost } from './settings.js';
import { secondInstanceActions } from './single-instance.js';
import { parseMigratingLine, type MigratingLine } from './startup-lines.js';
import type { ServerState } from './supervisor.js';
import { trayModel, type TrayAction, type TrayIcon } from './tray.js';
import { closeDecision, rendererGoneAction, windowContent } from './window-policy.js';

const here = dirname(fileURLToPath(import.meta.url));
// dist/electron/main.js → dist/main.js (the CLI entry), the same layout inside the package,
// where the server runs from app.asar.unpacked (paths.ts unpackedPath says why).
const SERVER_MAIN = unpackedPath(join(here, '..', 'main.js'));
const GUARD = unpackedPath(join(here, 'server-guard.cjs'));
const ICONS = unpackedPath(join(here, '..', '..', 'build', 'icons'));
const PRELOAD = join(here, 'preload.cjs');
const OUTBOX_EVERY_MS = 60_000;

const SECURE_PREFS: WebPreferences = {
  contextIsolation: true,
  nodeIntegration: false,
  sandbox: true,
  webviewTag: false,
  preload: PRELOAD,
};

const paths = () => desktopPaths(app.getPath('userData'));
const t = () => messagesFor(app.getLocale());
const lang = () => (app.getLocale().toLowerCase().startsWith('ja') || app.getLocale() === '' ? 'ja' : 'en');
// Electron's own binary as Node (server-process.ts says why not a utilityProcess).
const spawnerFor = (guarded: boolean) =>
  childProcessSpawner(SERVER_MAIN, {
    execPath: process.execPath,
    runAsNode: true,
    env: serverEnv(process.env, guarded ? paths().settingsFile : undefined),
    ...(guarded ? { guard: GUARD } : {}),
  });
const cli = () => spawnerFor(false);

// A load replaced by the next one (starting page → UI) or a refused link is no error to report.
const load = (w: BrowserWindow, url: string) => void w.loadURL(url).catch(() => undefined);
const openExternal = (url: string) => void shell.openExternal(url).catch(() => undefined);

let launched: Launched | undefined;
let window: BrowserWindow | null = null;
let tray: Tray | null = null;
let outbox: OutboxSummary | null | undefined;
let hiddenNotified = false;
// The system is shutting down or logging off: the window closes for real.
let sessionEnding = false;
let portQuestionAsked = false;
// The server's migrating line, until it is ready (or not).
let migrating: MigratingLine | null = null;
let backups: BackupLog | undefined;
let backupSchedule: { stop(): void } | null = null;
let restoring = false;
const rendererCrashes = new CrashWindow(3, 60_000);
const server = () => launched?.supervisor.server() ?? null;
const origin = () => server()?.origin;

const quitFlow = createQuitFlow({
  // Supervised, running or about to be restarted: quitting asks and stops it either way.
  serverRunning: () => launched !== undefined && launched.supervisor.state.kind !== 'stopped',
  readOutbox: () => readOutbox(cli(), paths().dataDir),
  confirm: async ({ depth, oldestAgeMs }) => {
    const m = t();
    const options = {
      type: 'warning' as const,
      title: m.quitTitle,
      message: m.quitMessage(depth),
      detail: m.quitDetail(formatAge(oldestAgeMs, m)),
      buttons: [m.quitAnyway, m.cancel],
      defaultId: 1,
      cancelId: 1,
    };
    const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
    return response === 0;
  },
  stopServer: async () => {
    backupSchedule?.stop();
    await launched?.supervisor.stop(10_000);
    await launched?.log.close();
  },
});

function showError(title: string, message: string, lines: string[]): void {
  const p = paths();
  window ??= createWindow(false);
  load(window, dataUrl(errorPage(t(), lang(), { title, message, lines, dataDir: p.dataDir, logFile: p.logFile })));
  openWindow();
}

function openWindow(): void {
  window ??= createWindow(true);
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

function createWindow(visible: boolean): BrowserWindow {
  const w = new BrowserWindow({ width: 1280, height: 760, minWidth: 960, minHeight: 600, show: false, title: 'POS Backoffice', webPreferences: SECURE_PREFS });
  if (visible) w.once('ready-to-show', () => w.show());
  // Closing the window hides it: the terminals' server runs on; quitting is in the tray and menu.
  w.on('close', (event) => {
    const decision = closeDecision({ quitting: quitFlow.closing || quitFlow.done || sessionEnding, notified: hiddenNotified });
    if (decision.action === 'close') return;
    event.preventDefault();
    w.hide();
    if (decision.notify && Notification.isSupported()) new Notification({ title: t().stillRunningTitle, body: t().stillRunningBody }).show();
    hiddenNotified = true;
  });
  // Windows ends the session without before-quit; the server's guard stops it with this process.
  w.on('session-end', () => (sessionEnding = true));
  w.on('closed', () => {
    if (window === w) window = null;
  });
  // A crashed page reloads; one that keeps crashing shows why instead of looping.
  w.webContents.on('render-process-gone', (_event, details) => {
    const action = rendererGoneAction(details.reason, rendererCrashes, Date.now());
    if (action === 'reload') load(w, server()?.uiUrl ?? dataUrl(startingPage(t(), lang())));
    else if (action === 'error-page') showError(t().rendererTitle, t().rendererMessage(details.reason), []);
  });
  load(w, dataUrl(startingPage(t(), lang())));
  if (launched) void renderWindow(w, launched.supervisor.state);
  return w;
}

function openInBrowser(): void {
  const s = server();
  if (s) openExternal(s.uiUrl);
}

function openSettings(): void {
  const s = server();
  if (!s) return;
  openWindow();
  load(window!, `${s.uiUrl}#/settings`);
}

const restartServer = () => void launched?.supervisor.restart();

function buildMenu(): Menu {
  const m = t();
  const file: MenuItemConstructorOptions = {
    label: m.fileMenu,
    submenu: [
      { label: m.openInBrowser, accelerator: 'CmdOrCtrl+Shift+B', click: openInBrowser },
      { label: m.settings, accelerator: 'CmdOrCtrl+,', click: openSettings },
      { label: m.showDataFolder, click: () => void shell.openPath(paths().dataDir) },
      { label: m.showLogFolder, click: () => void shell.openPath(dirname(paths().logFile)) },
      { type: 'separator' },
      { label: m.backupNow, click: () => void backupNow() },
      { label: m.restoreBackup, click: () => void restoreFromBackup() },
      { type: 'separator' },
      { label: m.restartServer, click: restartServer },
      { type: 'separator' },
      { label: m.closeWindow, accelerator: 'CmdOrCtrl+W', click: () => window?.close() },
      ...(process.platform === 'darwin' ? [] : [{ label: m.quit, accelerator: 'CmdOrCtrl+Q', click: () => app.quit() }]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: m.viewMenu,
    submenu: [
      { role: 'reload' },
      ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const, label: m.appMenu }] : []),
    file,
    { role: 'editMenu', label: m.editMenu },
    view,
    { role: 'windowMenu', label: m.windowMenu },
  ];
  return Menu.buildFromTemplate(template);
}

const TRAY_ACTIONS: Record<TrayAction, () => void> = {
  open: openWindow,
  settings: openSettings,
  'restart-server': restartServer,
  'backup-now': () => void backupNow(),
  quit: () => app.quit(),
};

const trayImage = (icon: TrayIcon) => nativeImage.createFromPath(join(ICONS, `tray-${icon}.png`));

function updateTray(): void {
  if (!launched || !tray) return;
  const settings = launched.settings();
  const model = trayModel(
    {
      server: launched.supervisor.state,
      outbox,
      lan: settings.lan,
      terminalUrls: terminalUrls(networkInterfaces(), settings.port ?? 0),
      backups,
      migrating: migrating !== null,
      formatTime: (iso) => new Date(iso).toLocaleString(app.getLocale() || 'ja'),
    },
    t(),
  );
  tray.setImage(trayImage(model.icon));
  tray.setToolTip(model.tooltip);
  tray.setContextMenu(
    Menu.buildFromTemplate(
      model.items.map((item): MenuItemConstructorOptions =>
        item === 'separator' ? { type: 'separator' } : { label: item.label, enabled: item.enabled, ...(item.action ? { click: TRAY_ACTIONS[item.action] } : {}) },
      ),
    ),
  );
}

function createTray(): void {
  tray = new Tray(trayImage('warn'));
  // Windows and most Linux trays open the app on a click; macOS shows the menu.
  if (process.platform !== 'darwin') tray.on('click', openWindow);
  updateTray();
}

/** The shell's page for a state the UI cannot show. */
async function pageFor(state: ServerState): Promise<string> {
  const m = t();
  const p = paths();
  const error = (title: string, message: string, lines: string[], linesTitle?: string) =>
    errorPage(m, lang(), { title, message, lines, dataDir: p.dataDir, logFile: p.logFile, ...(linesTitle ? { linesTitle } : {}) });
  switch (state.kind) {
    case 'waiting':
      return error(m.stoppedTitle, `${m.serverWaiting(Math.ceil(state.retryInMs / 1000))}: ${state.reason}`, state.tail);
    case 'port-in-use':
      return error(m.portInUseTitle, m.portInUseMessage(state.port, Math.round(state.retryInMs / 1000)), state.tail);
    case 'failed': {
      const minutes = Math.round((launched?.supervisor.policy.windowMs ?? 0) / 60_000);
      return error(m.failedTitle, m.failedMessage(state.crashes, minutes, state.reason), await readLogTail(p.logFile), m.logTail);
    }
    default:
      return migrating ? migratingPage(m, lang(), migrating) : startingPage(m, lang());
  }
}

async function renderWindow(w: BrowserWindow, state: ServerState): Promise<void> {
  const content = windowContent(state);
  if (content.show === 'ui') load(w, content.url);
  else if (content.show === 'page') load(w, dataUrl(await pageFor(state)));
}

/** Every server state shows in the tray, and in the window when there is one or a person must act. */
async function onServerState(state: ServerState): Promise<void> {
  if (state.kind !== 'starting') migrating = null;
  updateTray();
  const content = windowContent(state);
  if (content.show === 'ui') {
    rendererCrashes.reset();
    void refreshOutbox();
    startBackups();
  }
  if (content.show === 'page' && content.bringForward) openWindow();
  if (window) await renderWindow(window, state);
  if (state.kind === 'port-in-use') await askAboutPort(state.port);
  else portQuestionAsked = false;
}

/** A taken port: offer a free one once per episode; moving is the person's choice, never the app's. */
async function askAboutPort(port: number): Promise<void> {
  if (portQuestionAsked || !launched) return;
  portQuestionAsked = true;
  const m = t();
  const free = await suggestPort(serverHost(launched.settings()), port);
  const options = { type: 'warning' as const, title: m.portInUseTitle, message: m.serverPortInUse(port), detail: m.portInUseDetail(port, free), buttons: [m.changePort(free), m.keepWaiting], defaultId: 1, cancelId: 1 };
  const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
  if (response !== 0 || launched.supervisor.state.kind !== 'port-in-use') return;
  const file = paths().settingsFile;
  saveSettings(file, { ...loadSettings(file).settings, port: free });
  await applySettings();
}

let settingsQueue: Promise<unknown> = Promise.resolve();
/** The settings file changed (the settings screen, a person, askAboutPort): apply it, one change at a time. */
function applySettings(): Promise<unknown> {
  settingsQueue = settingsQueue.then(async () => {
    if (!launched) return;
    const change = await launched.reloadSettings();
    if (change.loginItem) applyLoginItem();
    updateTray();
  });
  return settingsQueue.catch(() => undefined);
}

function applyLoginItem(): void {
  if (!launched) return;
  const plan = loginItemPlan({ enabled: launched.settings().startAtLogin, platform: process.platform, packaged: app.isPackaged, execPath: process.execPath, env: process.env, home: app.getPath('home') });
  try {
    if (plan.kind === 'electron') app.setLoginItemSettings({ openAtLogin: plan.openAtLogin, args: plan.args });
    else if (plan.kind === 'autostart') applyAutostart(plan);
  } catch (error) {
    launched.log.write(logLine('shell', `start at login could not be set: ${(error as Error).message}`));
  }
}

let outboxReading = false;
/** The tray's head-office line: `sync status` through the CLI (the shell holds no API token). */
async function refreshOutbox(): Promise<void> {
  if (outboxReading || !server()) return;
  outboxReading = true;
  try {
    outbox = await readOutbox(cli(), paths().dataDir);
  } finally {
    outboxReading = false;
  }
  updateTray();
}

const dialogFor = (options: Electron.MessageBoxOptions) => (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
const currentBackupFolder = () => backupFolder(backupSettings(launched!.settings()), paths().dataDir);

function refreshBackups(): void {
  backups = loadBackupLog(backupLogFile(app.getPath('userData')));
  updateTray();
}

/** The daily backup (backups.ts), checked hourly from the first time the server runs. */
function startBackups(): void {
  if (backupSchedule || !launched) return;
  refreshBackups();
  backupSchedule = scheduleBackups(async () => {
    if (!launched || restoring) return;
    const outcome = await dailyBackup({ spawn: cli(), dataDir: paths().dataDir, logFile: backupLogFile(app.getPath('userData')), settings: backupSettings(launched.settings()) });
    if (outcome.status === 'made') launched.log.write(logLine('shell', `daily backup ${outcome.backup.file}${outcome.removed.length ? `; removed ${outcome.removed.join(', ')}` : ''}`));
    if (outcome.status === 'failed') launched.log.write(logLine('shell', `daily backup failed: ${outcome.message}`));
    refreshBackups();
  });
}

/** A manual backup: never pruned by the daily ones. */
async function backupNow(): Promise<void> {
  if (!launched) return;
  const m = t();
  try {
    const made = await runBackup(cli(), paths().dataDir, currentBackupFolder(), 'manual');
    await dialogFor({ type: 'info', title: m.backupMadeTitle, message: m.backupMadeTitle, detail: made.file });
  } catch (error) {
    await dialogFor({ type: 'error', title: m.backupFailedTitle, message: m.backupFailedTitle, detail: (error as Error).message });
  }
}

/** Stops the server, restores the chosen backup through the CLI, starts the server again. */
async function restoreFromBackup(): Promise<void> {
  if (!launched || restoring) return;
  const m = t();
  const options: Electron.OpenDialogOptions = { title: m.restoreBackup, defaultPath: currentBackupFolder(), properties: ['openFile'], filters: [{ name: m.backupFiles, extensions: ['sqlite'] }] };
  const pick = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  const file = pick.filePaths[0];
  if (pick.canceled || !file) return;
  const { response } = await dialogFor({ type: 'warning', title: m.restoreConfirmTitle, message: m.restoreConfirmTitle, detail: m.restoreConfirmDetail(file), buttons: [m.restoreButton, m.cancel], defaultId: 1, cancelId: 1 });
  if (response !== 0) return;
  restoring = true;
  try {
    await launched.supervisor.stop(10_000);
    const restored = await restoreBackup(cli(), paths().dataDir, file);
    launched.log.write(logLine('shell', `restored ${restored.restored}; the database it replaced: ${restored.previous ?? 'none'}`));
    launched.supervisor.start();
    await dialogFor({ type: 'info', title: m.restoredTitle, message: m.restoredTitle, detail: m.restoredDetail(restored.previous) });
  } catch (error) {
    // The database was left as it was: serve it again.
    launched.supervisor.start();
    await dialogFor({ type: 'error', title: m.restoreFailedTitle, message: m.restoreFailedTitle, detail: (error as Error).message });
  } finally {
    restoring = false;
  }
}

/** Every web page of the app (the window and any it opens) stays on the local server. */
function guardContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    const guard = (event: { preventDefault(): void }, url: string) => {
      const verdict = classifyNavigation(url, origin());
      if (verdict === 'allow') return;
      event.preventDefault();
      if (verdict === 'external') openExternal(url);
    };
    contents.on('will-navigate', (event) => guard(event, event.url));
    contents.on('will-redirect', (event) => guard(event, event.url));
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const verdict = classifyNavigation(url, origin());
      // Same-origin pop-ups (e.g. a printable report) get the same locked-down preferences.
      if (verdict === 'allow') return { action: 'allow', overrideBrowserWindowOptions: { webPreferences: SECURE_PREFS } };
      if (verdict === 'external') openExternal(url);
      return { action: 'deny' };
    });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, origin())),
  );
  session.defaultSession.setPermissionCheckHandler((_wc, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin, origin()));
}

function handleBridge(): void {
  const trusted = (event: IpcMainInvokeEvent) => isTrustedSender(event.senderFrame?.url, origin());
  ipcMain.handle(CHANNELS.info, (event): DesktopInfo | null => (trusted(event) ? { version: app.getVersion(), dataDir: paths().dataDir } : null));
  ipcMain.handle(CHANNELS.openDataFolder, async (event) => {
    if (trusted(event)) await shell.openPath(paths().dataDir);
  });
  ipcMain.handle(CHANNELS.openInBrowser, (event) => {
    if (trusted(event)) openInBrowser();
  });
}

async function start(): Promise<void> {
  Menu.setApplicationMenu(buildMenu());
  guardContents();
  handleBridge();
  const openedAtLogin = process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
  if (!startsHidden(process.argv, openedAtLogin)) window = createWindow(true);
  try {
    launched = await launch({
      spawn: spawnerFor(true),
      userData: app.getPath('userData'),
      demo: wantsDemo(process.argv, process.env),
      onLine: (stream, line) => {
        const migratingLine = stream === 'stdout' ? parseMigratingLine(line) : null;
        if (!migratingLine || !launched) return;
        migrating = migratingLine;
        void onServerState(launched.supervisor.state);
      },
    });
  } catch (error) {
    // Folders or the settings file cannot be written: nothing can run.
    return showError(t().startFailedTitle, (error as Error).message, []);
  }
  createTray();
  launched.supervisor.onState((state) => void onServerState(state));
  void onServerState(launched.supervisor.state);
  applyLoginItem();
  // Linux and macOS: the system is going down; the app must not hold it up (the guard stops the server).
  powerMonitor.on('shutdown', () => (sessionEnding = true));
  watchFile(paths().settingsFile, { interval: 2000, persistent: false }, () => void applySettings());
  setInterval(() => void refreshOutbox(), OUTBOX_EVERY_MS).unref();
}

if (!app.requestSingleInstanceLock()) {
  // The first instance gets 'second-instance' and brings its window forward.
  app.quit();
} else {
  app.on('second-instance', () => {
    const w = window && !window.isDestroyed() ? window : null;
    for (const action of secondInstanceActions(w ? { minimized: w.isMinimized(), visible: w.isVisible() } : null)) {
      if (action === 'create') window = createWindow(true);
      else if (action === 'restore') w?.restore();
      else if (action === 'show') w?.show();
      else w?.focus();
    }
  });
  app.on('before-quit', (event) => {
    // A shutdown or log-off must not wait on a question; the guard still stops the server gracefully.
    if (quitFlow.done || sessionEnding) return;
    event.preventDefault();
    void quitFlow.request().then((outcome) => {
      if (outcome !== 'quit') return;
      tray?.destroy();
      app.quit();
    });
  });
  // The app lives in the tray: no window is no reason to quit.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => {
    if (app.isReady()) openWindow();
  });
  void app.whenReady().then(start);
}
