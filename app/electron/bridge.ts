// The contract between preload.cts and main.ts: what the UI may ask of the desktop shell. Kept
// tiny on purpose; the UI talks to the server over HTTP like any browser, and works the same
// in a browser where `window.posDesktop` is undefined.

export const BRIDGE_KEY = 'posDesktop';

export const CHANNELS = {
  info: 'pos-desktop:info',
  openDataFolder: 'pos-desktop:open-data-folder',
  openInBrowser: 'pos-desktop:open-in-browser',
} as const;

export type BridgeChannel = (typeof CHANNELS)[keyof typeof CHANNELS];

export interface DesktopInfo {
  /** The app's version (package.json). */
  version: string;
  /** The folder holding the store's database. */
  dataDir: string;
}

/** `window.posDesktop` in the UI when it runs inside the desktop app. */
export interface PosDesktopBridge {
  info(): Promise<DesktopInfo>;
  /** Opens the data folder in the system file manager. */
  openDataFolder(): Promise<void>;
  /** Opens the current UI address in the system browser. */
  openInBrowser(): Promise<void>;
}
