// The shell's own words (menus, dialogs, start-up pages): Japanese by default like the UI,
// English when the system language is not Japanese.

const ja = {
  appMenu: 'POS Backoffice',
  fileMenu: 'ファイル',
  openInBrowser: 'ブラウザで開く',
  showDataFolder: 'データフォルダを表示',
  showLogFolder: 'ログフォルダを表示',
  restart: '再起動',
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
  afterError: 'メニューの「ファイル」→「再起動」でもう一度起動できます。',
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
  restart: 'Restart',
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
  afterError: 'File → Restart starts it again.',
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
