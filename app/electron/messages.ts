// The shell's own words (menus, dialogs, start-up pages): Japanese by default like the UI,
// English when the system language is not Japanese.

const ja = {
  appMenu: 'POS Backoffice',
  fileMenu: 'ファイル',
  openInBrowser: 'ブラウザで開く',
  showDataFolder: 'データフォルダを表示',
  showLogFolder: 'ログフォルダを表示',
  settings: '設定…',
  restartServer: 'サーバーを再起動',
  closeWindow: 'ウィンドウを閉じる',
  quit: '終了',
  editMenu: '編集',
  viewMenu: '表示',
  windowMenu: 'ウィンドウ',
  starting: 'サーバーを起動しています…',
  startFailedTitle: 'サーバーを起動できませんでした',
  stoppedTitle: 'サーバーが停止しました',
  lastLines: 'サーバーの最後の出力',
  dataFolder: 'データフォルダ',
  logFile: 'ログファイル',
  afterError: 'メニューの「ファイル」→「サーバーを再起動」か、トレイのアイコンの「サーバーを再起動」でもう一度起動できます。',
  openWindow: 'ウィンドウを開く',
  serverStarting: 'サーバーを起動しています',
  serverRunning: (port: number) => `サーバー稼働中（ポート ${port}）`,
  serverWaiting: (seconds: number) => `サーバーが停止しました。${seconds} 秒後に再起動します`,
  serverPortInUse: (port: number) => `ポート ${port} は他のプログラムが使用中です`,
  serverFailed: 'サーバーが繰り返し停止したため、再起動を止めました',
  serverStopped: 'サーバーは停止しています',
  restarted: (n: number) => `（${n} 回再起動）`,
  syncNotLinked: '本部: 未連携',
  syncOnline: (depth: number) => (depth > 0 ? `本部: オンライン・未送信 ${depth} 件` : '本部: オンライン・未送信なし'),
  syncOffline: (depth: number) => `本部: オフライン・未送信 ${depth} 件`,
  syncUnknown: '本部: 状態を確認できません',
  terminalsAt: (url: string) => `レジ端末の接続先: ${url}`,
  lanOff: 'LAN への公開はオフ（この PC のみ）',
  lanNoAddress: 'LAN のアドレスが見つかりません',
  stillRunningTitle: 'POS Backoffice は動作を続けています',
  stillRunningBody: 'ウィンドウを閉じても、レジ端末が使うサーバーは止まりません。終了はトレイのアイコンから。',
  portInUseTitle: 'ポートが使用中です',
  portInUseMessage: (port: number, seconds: number) =>
    `ポート ${port} を他のプログラムが使っているため、サーバーを起動できません。レジ端末はこのポートに接続するので、アプリが別のポートに移ることはありません。${seconds} 秒ごとに同じポートで再試行しています。`,
  portInUseDetail: (port: number, free: number) =>
    `ポート ${port} を使っているプログラムを終了するか、ポートを ${free} に変更してください。変更した場合は、各レジ端末の接続先も http://<この PC>:${free} に変える必要があります。`,
  changePort: (port: number) => `ポートを ${port} に変更`,
  keepWaiting: 'このまま待つ',
  failedTitle: 'サーバーが繰り返し停止しました',
  failedMessage: (crashes: number, minutes: number, reason: string) => `サーバーが ${minutes} 分の間に ${crashes} 回停止したため、自動の再起動を止めました。最後の停止: ${reason}`,
  logTail: 'ログの最後',
  rendererTitle: '画面の表示が繰り返し停止しました',
  rendererMessage: (reason: string) => `画面を表示するプロセスが短時間に何度も停止しました（${reason}）。サーバーは動作しています。「表示」→「再読み込み」で開き直せます。`,
  quitTitle: '未送信のデータがあります',
  quitMessage: (depth: number) => `本部へ未送信の記録が ${depth} 件あります。`,
  quitDetail: (age: string | null) =>
    `終了しても記録は失われず、次回起動時に送信されます。${age ? `（最も古い記録: ${age}前）` : ''}本部にはそれまで反映されません。終了しますか？`,
  quitAnyway: '終了する',
  cancel: 'キャンセル',
  minutes: (n: number) => `${n} 分`,
  hours: (n: number) => `${n} 時間`,
  days: (n: number) => `${n} 日`,
};

export type Messages = typeof ja;

const en: Messages = {
  appMenu: 'POS Backoffice',
  fileMenu: 'File',
  openInBrowser: 'Open in Browser',
  showDataFolder: 'Show Data Folder',
  showLogFolder: 'Show Log Folder',
  settings: 'Settings…',
  restartServer: 'Restart Server',
  closeWindow: 'Close Window',
  quit: 'Quit',
  editMenu: 'Edit',
  viewMenu: 'View',
  windowMenu: 'Window',
  starting: 'Starting the server…',
  startFailedTitle: 'The server could not start',
  stoppedTitle: 'The server stopped',
  lastLines: "The server's last output",
  dataFolder: 'Data folder',
  logFile: 'Log file',
  afterError: 'File → Restart Server, or Restart Server on the tray icon, starts it again.',
  openWindow: 'Open Window',
  serverStarting: 'Starting the server',
  serverRunning: (port) => `Server running (port ${port})`,
  serverWaiting: (seconds) => `The server stopped; restarting in ${seconds} s`,
  serverPortInUse: (port) => `Port ${port} is used by another program`,
  serverFailed: 'The server kept stopping; no more restarts',
  serverStopped: 'The server is stopped',
  restarted: (n) => ` (restarted ${n}×)`,
  syncNotLinked: 'Head office: not linked',
  syncOnline: (depth) => (depth > 0 ? `Head office: online, ${depth} waiting` : 'Head office: online, nothing waiting'),
  syncOffline: (depth) => `Head office: offline, ${depth} waiting`,
  syncUnknown: 'Head office: status unknown',
  terminalsAt: (url) => `Terminals connect to ${url}`,
  lanOff: 'LAN access off (this PC only)',
  lanNoAddress: 'No LAN address found',
  stillRunningTitle: 'POS Backoffice keeps running',
  stillRunningBody: 'Closing the window does not stop the server the terminals use. Quit from the tray icon.',
  portInUseTitle: 'Port in use',
  portInUseMessage: (port, seconds) =>
    `Another program uses port ${port}, so the server cannot start. The register terminals connect to this port, so the app never moves to another one. It tries the same port again every ${seconds} s.`,
  portInUseDetail: (port, free) =>
    `Quit the program that uses port ${port}, or change the port to ${free}. If you change it, set every register terminal to http://<this PC>:${free} as well.`,
  changePort: (port) => `Change to Port ${port}`,
  keepWaiting: 'Keep Waiting',
  failedTitle: 'The server kept stopping',
  failedMessage: (crashes, minutes, reason) => `The server stopped ${crashes} times within ${minutes} min, so it is no longer restarted. Last stop: ${reason}`,
  logTail: 'The end of the log',
  rendererTitle: 'The window kept crashing',
  rendererMessage: (reason) => `The process that draws the window stopped several times in a short while (${reason}). The server is still running. View → Reload opens it again.`,
  quitTitle: 'Records not yet sent',
  quitMessage: (depth) => `${depth} record${depth === 1 ? ' has' : 's have'} not been sent to head office yet.`,
  quitDetail: (age) =>
    `Nothing is lost by quitting: they are sent at the next start${age ? ` (the oldest is ${age} old)` : ''}, and head office will not see them until then. Quit anyway?`,
  quitAnyway: 'Quit Anyway',
  cancel: 'Cancel',
  minutes: (n) => `${n} min`,
  hours: (n) => `${n} h`,
  days: (n) => `${n} d`,
};

/** Japanese unless the system language is another one (Electron's app.getLocale()). */
export function messagesFor(locale: string): Messages {
  return locale === '' || locale.toLowerCase().startsWith('ja') ? ja : en;
}

/** A rough age for the quit question: minutes, hours or days. */
export function formatAge(ms: number | null, t: Messages): string | null {
  if (ms === null) return null;
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 120) return t.minutes(minutes);
  const hours = Math.round(minutes / 60);
  return hours < 48 ? t.hours(hours) : t.days(Math.round(hours / 24));
}
