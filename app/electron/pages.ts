// The pages the shell shows itself while the UI cannot be: "starting" and the error page (a
// crash being restarted, a port in use, repeated crashes).
// They are data: URLs with no script (CSP default-src 'none'), so nothing in them can run.
import type { Messages } from './messages.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font-family:system-ui,"Noto Sans CJK JP","Yu Gothic UI",sans-serif;margin:2rem;color:#1b1b1b;background:#fafafa}
h1{font-size:1.3rem}pre{background:#fff;border:1px solid #ccc;padding:.75rem;white-space:pre-wrap;word-break:break-all;max-height:50vh;overflow:auto}
dt{font-weight:600;margin-top:.5rem}dd{margin:0;font-family:monospace}`;

function page(lang: string, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function dataUrl(html: string): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export function startingPage(t: Messages, lang: string): string {
  return page(lang, t.appMenu, `<h1>${escapeHtml(t.starting)}</h1>`);
}

/** The server is updating the database (startup-lines.ts): working, not stuck. */
export function migratingPage(t: Messages, lang: string, m: { from: number; to: number; backup: string }): string {
  return page(lang, t.migratingTitle, `<h1>${escapeHtml(t.migratingTitle)}</h1><p>${escapeHtml(t.migratingMessage(m.from, m.to, m.backup))}</p>`);
}

export interface ErrorPageInput {
  title: string;
  message: string;
  lines: string[];
  /** The heading over the lines: the server's last output unless said otherwise (the log). */
  linesTitle?: string;
  dataDir: string;
  logFile: string;
}

/** What went wrong, the server's last lines and where to look: enough for a support call. */
export function errorPage(t: Messages, lang: string, e: ErrorPageInput): string {
  const lines = e.lines.length > 0 ? `<h2>${escapeHtml(e.linesTitle ?? t.lastLines)}</h2><pre>${escapeHtml(e.lines.join('\n'))}</pre>` : '';
  return page(
    lang,
    e.title,
    `<h1>${escapeHtml(e.title)}</h1><p>${escapeHtml(e.message)}</p>${lines}
<dl><dt>${escapeHtml(t.dataFolder)}</dt><dd>${escapeHtml(e.dataDir)}</dd><dt>${escapeHtml(t.logFile)}</dt><dd>${escapeHtml(e.logFile)}</dd></dl>
<p>${escapeHtml(t.afterError)}</p>`,
  );
}
