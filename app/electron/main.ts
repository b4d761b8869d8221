// The Electron main process: only wiring. Every decision lives in a plain module tested in Node
// (launch, port, settings, server-process, outbox, quit, navigation, single-instance, pages).
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, utilityProcess } from 'electron';
import type { IpcMainInvokeEvent, MenuItemConstructorOptions, WebPreferences } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNELS, type DesktopInfo } from './bridge.js';
import { launch, wantsDemo, type Launched } from './launch.js';
import { formatAge, messagesFor } from './messages.js';
import { classifyNavigation, isPermissionAllowed, isTrustedSender } from './navigation.js';
import { readOutbox } from './outbox.js';
import { dataUrl, errorPage, startingPage } from './pages.js';
import { desktopPaths } from './paths.js';
import { createQuitFlow } from './quit.js';
import { SERVER_NODE_FLAGS } from './server-options.js';
import { childProcessSpawner, fromUtilityProcess, ServerStartError, type Spawner } from './server-process.js';
import { serverEnv } from './settings.js';
import { secondInstanceActions } from './single-instance.js';

const here = dirname(fileURLToPath(import.meta.url));
// dist/electron/main.js → dist/server/main.js, the same layout inside the package's app.asar.
const SERVER_MAIN = join(here, '..', 'server', 'main.js');
const PRELOAD = join(here, 'preload.cjs');

const SECURE_PREFS: WebPreferences = {
  contextIsolation: true,
  nodeIntegration: false,
  sandbox: true,
  webviewTag: false,
  preload: PRELOAD,
};

/** The server in a utilityProcess; a plain child process running Electron as Node where that is missing. */
const spawner: Spawner = (args) => {
  const env = serverEnv(process.env);
  if (typeof utilityProcess?.fork === 'function') {
    return fromUtilityProcess(utilityProcess.fork(SERVER_MAIN, args, { stdio: ['ignore', 'pipe', 'pipe'], serviceName: 'POS Backoffice server', env, execArgv: [...SERVER_NODE_FLAGS] }));
  }
  return childProcessSpawner(SERVER_MAIN, { env, runAsNode: true })(args);
};

// A load replaced by the next one (starting page → UI) or a refused link is no error to report.
const load = (w: BrowserWindow, url: string) => void w.loadURL(url).catch(() => undefined);
const openExternal = (url: string) => void shell.openExternal(url).catch(() => undefined);

let launched: Launched | undefined;
let window: BrowserWindow | null = null;
const origin = () => launched?.server.origin;
const paths = () => desktopPaths(app.getPath('userData'));

const quitFlow = createQuitFlow({
  serverRunning: () => launched?.server.isRunning() ?? false,
  readOutbox: () => readOutbox(spawner, paths().dataDir),
  confirm: async ({ depth, oldestAgeMs }) => {
    const t = messagesFor(app.getLocale());
    const options = {
      type: 'warning' as const,
      title: t.quitTitle,
      message: t.quitMessage(depth),
      detail: t.quitDetail(formatAge(oldestAgeMs, t)),
      buttons: [t.quitAnyway, t.cancel],
      defaultId: 1,
      cancelId: 1,
    };
    const { response } = window ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
    return response === 0;
  },
  stopServer: () => launched!.server.stop(10_000),
});

function showError(title: string, message: string, lines: string[]): void {
  const t = messagesFor(app.getLocale());
  const p = paths();
  const html = errorPage(t, lang(), { title, message, lines, dataDir: p.dataDir, logFile: p.logFile });
  window ??= createWindow();
  load(window, dataUrl(html));
  window.show();
}

const lang = () => (app.getLocale().toLowerCase().startsWith('ja') || app.getLocale() === '' ? 'ja' : 'en');

function createWindow(): BrowserWindow {
  const w = new BrowserWindow({ width: 1280, height: 760, minWidth: 960, minHeight: 600, show: false, title: 'POS Backoffice', webPreferences: SECURE_PREFS });
  w.once('ready-to-show', () => w.show());
  // Windows and Linux: closing the window is quitting, so it goes through the quit question.
  w.on('close', (event) => {
    if (process.platform !== 'darwin' && !quitFlow.done) {
      event.preventDefault();
      app.quit();
    }
  });
  w.on('closed', () => {
    if (window === w) window = null;
  });
  const url = launched?.server.isRunning() ? launched.server.uiUrl : dataUrl(startingPage(messagesFor(app.getLocale()), lang()));
  load(w, url);
  return w;
}

function openInBrowser(): void {
  if (launched) openExternal(launched.server.uiUrl);
}

function buildMenu(): Menu {
  const t = messagesFor(app.getLocale());
  const file: MenuItemConstructorOptions = {
    label: t.fileMenu,
    submenu: [
      { label: t.openInBrowser, accelerator: 'CmdOrCtrl+Shift+B', click: openInBrowser },
      { label: t.showDataFolder, click: () => void shell.openPath(paths().dataDir) },
      { label: t.showLogFolder, click: () => void shell.openPath(dirname(paths().logFile)) },
      { type: 'separator' },
      // Asks about a waiting outbox first, like quitting.
      {
        label: t.restart,
        click: () =>
          void quitFlow.request().then((outcome) => {
            if (outcome !== 'quit') return;
            app.relaunch();
            app.quit();
          }),
      },
      ...(process.platform === 'darwin' ? [] : [{ type: 'separator' as const }, { label: t.quit, accelerator: 'CmdOrCtrl+Q', click: () => app.quit() }]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: t.viewMenu,
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
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const, label: t.appMenu }] : []),
    file,
    { role: 'editMenu', label: t.editMenu },
    view,
    { role: 'windowMenu', label: t.windowMenu },
  ];
  return Menu.buildFromTemplate(template);
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
  const t = messagesFor(app.getLocale());
  Menu.setApplicationMenu(buildMenu());
  guardContents();
  handleBridge();
  window = createWindow();
  try {
    launched = await launch({ spawn: spawner, userData: app.getPath('userData'), demo: wantsDemo(process.argv, process.env) });
  } catch (error) {
    if (error instanceof ServerStartError) return showError(t.startFailedTitle, error.message, error.tail);
    return showError(t.startFailedTitle, (error as Error).message, []);
  }
  const server = launched.server;
  if (window) load(window, server.uiUrl);
  void server.exited.then(({ code }) => {
    if (quitFlow.closing) return;
    showError(t.stoppedTitle, code === null ? 'the server process was killed' : `the server exited with code ${code}`, server.stderrTail().length ? server.stderrTail() : server.stdoutTail());
  });
}

if (!app.requestSingleInstanceLock()) {
  // The first instance gets 'second-instance' and brings its window forward.
  app.quit();
} else {
  app.on('second-instance', () => {
    const w = window && !window.isDestroyed() ? window : null;
    for (const action of secondInstanceActions(w ? { minimized: w.isMinimized(), visible: w.isVisible() } : null)) {
      if (action === 'create') window = createWindow();
      else if (action === 'restore') w?.restore();
      else if (action === 'show') w?.show();
      else w?.focus();
    }
  });
  app.on('before-quit', (event) => {
    if (quitFlow.done) return;
    event.preventDefault();
    void quitFlow.request().then((outcome) => outcome === 'quit' && app.quit());
  });
  // macOS keeps the app (and so the server the terminals use) running with no window open.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && window === null) window = createWindow();
  });
  void app.whenReady().then(start);
}
