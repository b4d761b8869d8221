import { useMemo, useSyncExternalStore, type AnchorHTMLAttributes, type ComponentType } from 'react';

/**
 * A tiny hash router: `#/masters/staffs?page=2`. The hash keeps every screen on the one
 * index.html the server serves (no server fallback routes) and works the same in Electron.
 */
export interface Location {
  /** `/masters/staffs` */
  path: string;
  query: URLSearchParams;
}

export type RouteParams = Record<string, string>;
export interface ScreenProps {
  params: RouteParams;
  query: URLSearchParams;
}

export interface RouteDef {
  /** `/masters/:kind`; `:name` segments become params. */
  path: string;
  component: ComponentType<ScreenProps>;
  /** Shown without a login (the login screen only). */
  public?: boolean;
}

export function parseHash(hash: string): Location {
  const raw = hash.replace(/^#/, '') || '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** The current location; re-renders on every hash change. */
export function useLocation(): Location {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return useMemo(() => parseHash(hash), [hash]);
}

/** `/masters/staffs` for `#/masters/staffs`; a href for <a>. */
export const href = (to: string) => `#${to.startsWith('/') ? to : `/${to}`}`;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.location.replace(href(to));
  else window.location.hash = href(to);
}

/** Matches `/masters/:kind` against `/masters/staffs` → `{ kind: 'staffs' }`; null when it does not match. */
export function matchPath(pattern: string, path: string): RouteParams | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: RouteParams = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith(':')) {
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        return null;
      }
    } else if (w !== h) return null;
  }
  return params;
}

export function findRoute(routes: readonly RouteDef[], path: string): { route: RouteDef; params: RouteParams } | null {
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return null;
}

/** A real link (keyboard, middle click, "open in new tab" all work); marks the current page for screen readers. */
export function Link({ to, exact, ...rest }: { to: string; exact?: boolean } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const { path } = useLocation();
  const current = exact ? path === to : path === to || path.startsWith(`${to}/`);
  return <a href={href(to)} aria-current={current ? 'page' : undefined} {...rest} />;
}
