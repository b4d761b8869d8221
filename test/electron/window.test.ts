import { describe, expect, it } from 'vitest';
import { wantsDemo } from '../../app/electron/launch.js';
import { formatAge, messagesFor } from '../../app/electron/messages.js';
import { classifyNavigation, isPermissionAllowed, isTrustedSender } from '../../app/electron/navigation.js';
import { dataUrl, errorPage, escapeHtml, migratingPage } from '../../app/electron/pages.js';
import { secondInstanceActions } from '../../app/electron/single-instance.js';
import { CrashWindow } from '../../app/electron/crash-window.js';
import type { RunningServer } from '../../app/electron/server-process.js';
import { closeDecision, rendererGoneAction, windowContent } from '../../app/electron/window-policy.js';

const ORIGIN = 'http://127.0.0.1:8080';

describe('navigation guard', () => {
  it('allows the local server origin only', () => {
    expect(classifyNavigation('http://127.0.0.1:8080/ui/', ORIGIN)).toBe('allow');
    expect(classifyNavigation('http://127.0.0.1:8080/ui/closing?day=2026-11-22#print', ORIGIN)).toBe('allow');
    expect(classifyNavigation('http://127.0.0.1:8080/docs', ORIGIN)).toBe('allow');
  });

  it('sends other web addresses to the system browser', () => {
    expect(classifyNavigation('https://example.com/help', ORIGIN)).toBe('external');
    // Same host, another port or scheme, or a name for the same address: another origin.
    expect(classifyNavigation('http://127.0.0.1:8081/ui/', ORIGIN)).toBe('external');
    expect(classifyNavigation('https://127.0.0.1:8080/ui/', ORIGIN)).toBe('external');
    expect(classifyNavigation('http://localhost:8080/ui/', ORIGIN)).toBe('external');
  });

  it('refuses every other scheme, credentials in URLs and malformed URLs', () => {
    for (const url of ['file:///etc/passwd', 'data:text/html,<script>1</script>', 'javascript:alert(1)', 'ms-settings:', 'chrome://gpu', 'about:blank', 'not a url', '']) {
      expect(classifyNavigation(url, ORIGIN), url).toBe('deny');
    }
    expect(classifyNavigation('https://user:pw@example.com/', ORIGIN)).toBe('deny');
    expect(classifyNavigation('http://127.0.0.1:8080@evil.example/', ORIGIN)).toBe('deny');
  });

  it('allows nothing local before the server is up', () => {
    expect(classifyNavigation('http://127.0.0.1:8080/ui/', undefined)).toBe('external');
    expect(isTrustedSender('http://127.0.0.1:8080/ui/', undefined)).toBe(false);
  });

  it('lets only the local pages use the bridge and the two permissions', () => {
    expect(isTrustedSender('http://127.0.0.1:8080/ui/', ORIGIN)).toBe(true);
    expect(isTrustedSender('https://example.com/', ORIGIN)).toBe(false);
    expect(isTrustedSender(undefined, ORIGIN)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'http://127.0.0.1:8080/ui/', ORIGIN)).toBe(true);
    expect(isPermissionAllowed('clipboard-read', 'http://127.0.0.1:8080/ui/', ORIGIN)).toBe(false);
    expect(isPermissionAllowed('media', 'http://127.0.0.1:8080/ui/', ORIGIN)).toBe(false);
    expect(isPermissionAllowed('fullscreen', 'https://example.com/', ORIGIN)).toBe(false);
  });
});

describe('single instance', () => {
  it('opens a window when none is left, else brings the existing one forward', () => {
    expect(secondInstanceActions(null)).toEqual(['create']);
    expect(secondInstanceActions({ minimized: false, visible: true })).toEqual(['focus']);
    expect(secondInstanceActions({ minimized: true, visible: true })).toEqual(['restore', 'focus']);
    expect(secondInstanceActions({ minimized: false, visible: false })).toEqual(['show', 'focus']);
  });
});

describe('demo and start-up pages', () => {
  it('seeds demo data only when asked', () => {
    expect(wantsDemo(['/opt/POS Backoffice/pos-backoffice'], {})).toBe(false);
    expect(wantsDemo(['electron', 'dist/electron', '--demo'], {})).toBe(true);
    expect(wantsDemo([], { POS_DEMO: '1' })).toBe(true);
    expect(wantsDemo([], { POS_DEMO: '0' })).toBe(false);
  });

  it('shows the server output escaped, with the data folder and log file', () => {
    const t = messagesFor('ja');
    const html = errorPage(t, 'ja', {
      title: t.startFailedTitle,
      message: 'the server stopped before it was ready: it exited with code 1',
      lines: ['pos-backoffice: port 8080 on 127.0.0.1 is already in use', '<script>alert(1)</script>'],
      dataDir: 'C:\\Users\\staff\\AppData\\Roaming\\POS Backoffice\\data',
      logFile: '/home/staff/.config/POS Backoffice/logs/server.log',
    });
    expect(html).toContain('サーバーを起動できませんでした');
    expect(html).toContain('port 8080 on 127.0.0.1 is already in use');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('AppData\\Roaming\\POS Backoffice\\data');
    expect(decodeURIComponent(dataUrl(html).slice('data:text/html;charset=utf-8,'.length))).toBe(html);
    expect(escapeHtml(`"'&`)).toBe('&quot;&#39;&amp;');
  });

  it('says the database is being updated, with where its earlier copy is', () => {
    const html = migratingPage(messagesFor('ja'), 'ja', { from: 25, to: 30, backup: '/d/backups/pos-<25>-pre-migration.sqlite' });
    expect(html).toContain('<h1>データベースを更新しています…</h1>');
    expect(html).toContain('（25 → 30）');
    expect(html).toContain('/d/backups/pos-&lt;25&gt;-pre-migration.sqlite');
    expect(html).not.toContain('<script');
  });

  it('speaks Japanese by default and English on other systems', () => {
    expect(messagesFor('ja-JP').quitAnyway).toBe('終了する');
    expect(messagesFor('').quitAnyway).toBe('終了する');
    expect(messagesFor('en-US').quitAnyway).toBe('Quit Anyway');
    expect(messagesFor('en-US').quitMessage(1)).toBe('1 record has not been sent to head office yet.');
    expect(formatAge(null, messagesFor('en'))).toBeNull();
    expect(formatAge(5 * 60_000, messagesFor('ja'))).toBe('5 分');
    expect(formatAge(3 * 3600_000, messagesFor('en'))).toBe('3 h');
    expect(formatAge(3 * 86400_000, messagesFor('en'))).toBe('3 d');
  });
});

describe('closing the window and a crashed page', () => {
  it('hides the window instead of quitting, saying so the first time only', () => {
    expect(closeDecision({ quitting: false, notified: false })).toEqual({ action: 'hide', notify: true });
    expect(closeDecision({ quitting: false, notified: true })).toEqual({ action: 'hide', notify: false });
    expect(closeDecision({ quitting: true, notified: false })).toEqual({ action: 'close', notify: false });
  });

  it('reloads a crashed page, but shows the error page when it keeps crashing or cannot come back', () => {
    const crashes = new CrashWindow(3, 60_000);
    expect(rendererGoneAction('clean-exit', crashes, 0)).toBe('none');
    expect(rendererGoneAction('crashed', crashes, 1_000)).toBe('reload');
    expect(rendererGoneAction('oom', crashes, 2_000)).toBe('reload');
    expect(rendererGoneAction('killed', crashes, 3_000)).toBe('error-page');
    // A minute later the earlier crashes no longer count.
    expect(rendererGoneAction('crashed', crashes, 70_000)).toBe('reload');
    expect(rendererGoneAction('integrity-failure', new CrashWindow(3, 60_000), 0)).toBe('error-page');
  });

  it('shows the UI while the server runs, the shell\'s page otherwise, and brings it forward when a person must act', () => {
    const server = { uiUrl: 'http://127.0.0.1:8080/ui/' } as RunningServer;
    expect(windowContent({ kind: 'running', server, restarts: 0 })).toEqual({ show: 'ui', url: 'http://127.0.0.1:8080/ui/' });
    expect(windowContent({ kind: 'starting', restarts: 0 })).toEqual({ show: 'page', page: 'starting', bringForward: false });
    expect(windowContent({ kind: 'waiting', restarts: 1, crashes: 1, retryInMs: 1000, reason: 'x', tail: [] })).toEqual({ show: 'page', page: 'waiting', bringForward: false });
    expect(windowContent({ kind: 'port-in-use', port: 8080, retryInMs: 1000, tail: [] })).toEqual({ show: 'page', page: 'port-in-use', bringForward: true });
    expect(windowContent({ kind: 'failed', crashes: 5, reason: 'x', tail: [] })).toEqual({ show: 'page', page: 'failed', bringForward: true });
    expect(windowContent({ kind: 'stopped' })).toEqual({ show: 'keep' });
  });
});
