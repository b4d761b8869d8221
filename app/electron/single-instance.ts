// One app per PC user: a second start would open the same database and fight over the port.
// The second process quits at once (main.ts); the first brings its window forward.

export interface WindowState {
  minimized: boolean;
  visible: boolean;
}

export type WindowAction = 'create' | 'restore' | 'show' | 'focus';

/**
 * What the first instance does when someone starts the app again: with no window (macOS keeps
 * running after its window closes) it opens one, otherwise it un-minimizes, shows and focuses it.
 */
export function secondInstanceActions(window: WindowState | null): WindowAction[] {
  if (window === null) return ['create'];
  const actions: WindowAction[] = [];
  if (window.minimized) actions.push('restore');
  if (!window.visible) actions.push('show');
  actions.push('focus');
  return actions;
}

