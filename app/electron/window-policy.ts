// What the window does when closed and when the page inside it crashes. The window is only a
// view: the server the terminals sell through runs on without it, in the tray.
import type { CrashWindow } from './crash-window.js';
import type { ServerState } from './supervisor.js';

export interface CloseDecision {
  /** hide: the app keeps running in the tray; close: the app is quitting anyway. */
  action: 'hide' | 'close';
  /** Say once per run that the app is still there (staff expect closing to quit). */
  notify: boolean;
}

export function closeDecision(state: { quitting: boolean; notified: boolean }): CloseDecision {
  if (state.quitting) return { action: 'close', notify: false };
  return { action: 'hide', notify: !state.notified };
}

export type RendererAction = 'reload' | 'error-page' | 'none';

/**
 * After webContents' render-process-gone: reload, unless it went away on purpose ('clean-exit'),
 * cannot come back ('integrity-failure': the app's files are damaged), or keeps crashing (the
 * CrashWindow's limit), when the error page says so instead of reloading in a loop.
 */
export function rendererGoneAction(reason: string, crashes: CrashWindow, now: number): RendererAction {
  if (reason === 'clean-exit') return 'none';
  if (reason === 'integrity-failure') return 'error-page';
  return crashes.record(now) >= crashes.limit ? 'error-page' : 'reload';
}

export type WindowContent =
  | { show: 'ui'; url: string }
  /** One of the shell's own pages; bringForward when a person has to act (the window may be hidden). */
  | { show: 'page'; page: 'starting' | 'waiting' | 'port-in-use' | 'failed'; bringForward: boolean }
  | { show: 'keep' };

/** What the window shows for a state of the server (supervisor.ts). */
export function windowContent(state: ServerState): WindowContent {
  switch (state.kind) {
    case 'running':
      return { show: 'ui', url: state.server.uiUrl };
    case 'starting':
      return { show: 'page', page: 'starting', bringForward: false };
    case 'waiting':
      return { show: 'page', page: 'waiting', bringForward: false };
    case 'port-in-use':
      return { show: 'page', page: 'port-in-use', bringForward: true };
    case 'failed':
      return { show: 'page', page: 'failed', bringForward: true };
    case 'stopped':
      // Between a restart's stop and start, or while quitting.
      return { show: 'keep' };
  }
}
