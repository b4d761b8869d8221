import type { CommonKey } from './i18n/ja';

/**
 * Where a login lands, and where an unknown path offers to go back to. A module of its own, with
 * no screen imported: the login and the layout read it while routes.tsx imports every screen,
 * so none of them imports the route table back.
 */
export const HOME = '/today';

/** The nav bar, in order: one line per screen listed (routes.tsx has its route). */
export const NAV: ReadonlyArray<{ to: string; label: CommonKey }> = [
  { to: '/today', label: 'nav.today' },
  { to: '/sync', label: 'nav.sync' },
  { to: '/closing', label: 'nav.closing' },
  { to: '/masters', label: 'nav.masters' },
  { to: '/reservations', label: 'nav.reservations' },
  { to: '/chart', label: 'nav.chart' },
  { to: '/inventory', label: 'nav.inventory' },
  { to: '/export', label: 'nav.export' },
  { to: '/settings', label: 'nav.settings' },
];
