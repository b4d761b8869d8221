// What the window may show: the local server's pages only. Anything else a page tries to open
// (a link, a redirect, window.open) is refused; plain web links go to the system browser, where
// they carry none of this app's rights.

export type NavigationVerdict = 'allow' | 'external' | 'deny';

/**
 * `allow` for the local server's own origin (scheme, host and port all equal), `external` for
 * another http(s) address (opened with the system browser), `deny` for everything else:
 * file:, data:, javascript:, custom schemes, malformed URLs, or anything before the server is up.
 */
export function classifyNavigation(target: string, serverOrigin: string | undefined): NavigationVerdict {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'deny';
  }
  if (serverOrigin !== undefined && url.origin === new URL(serverOrigin).origin) return 'allow';
  // Credentials in a URL are a phishing trick; such a link is not opened anywhere.
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '') return 'external';
  return 'deny';
}

/** Only the local server's pages may call the preload bridge (bridge.ts). */
export function isTrustedSender(frameUrl: string | undefined, serverOrigin: string | undefined): boolean {
  return frameUrl !== undefined && classifyNavigation(frameUrl, serverOrigin) === 'allow';
}

/** Permissions a page of the local server may have: copying to the clipboard and full screen. */
const GRANTED = new Set(['clipboard-sanitized-write', 'fullscreen']);

export function isPermissionAllowed(permission: string, requestingUrl: string | undefined, serverOrigin: string | undefined): boolean {
  return GRANTED.has(permission) && requestingUrl !== undefined && classifyNavigation(requestingUrl, serverOrigin) === 'allow';
}
