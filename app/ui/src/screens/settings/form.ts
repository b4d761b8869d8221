import type { paths } from '../../api/client';

/** The settings of a server the desktop app started (PUT's answer, GET's `desktopApp: true`). */
export type DesktopSettings = paths['/{contract_id}/pos/desktop_settings']['put']['responses'][200]['content']['application/json'];
export type DesktopSettingsBody = paths['/{contract_id}/pos/desktop_settings']['put']['requestBody']['content']['application/json'];

/** The form's text, as typed: numbers are parsed on save so the API's own messages name a wrong one. */
export interface SettingsForm {
  port: string;
  lan: boolean;
  uiLan: boolean;
  startAtLogin: boolean;
  backupFolder: string;
  backupKeep: string;
}

export function formOf(s: DesktopSettings): SettingsForm {
  return { port: s.port === null ? '' : String(s.port), lan: s.lan, uiLan: s.uiLan, startAtLogin: s.startAtLogin, backupFolder: s.backupFolder ?? '', backupKeep: String(s.backupKeep) };
}

/**
 * A number when the text is one, else the text itself: the browser checks nothing, the API says
 * what is wrong with it beside the field (as every form of the back office does).
 */
const numberOrText = (text: string): number => (/^\s*\d+\s*$/.test(text) ? Number(text) : (text as unknown as number));

/** The PUT body: an empty folder is the default one (null). */
export function bodyOf(f: SettingsForm): DesktopSettingsBody {
  return { port: numberOrText(f.port), lan: f.lan, uiLan: f.uiLan, startAtLogin: f.startAtLogin, backupFolder: f.backupFolder.trim() === '' ? null : f.backupFolder.trim(), backupKeep: numberOrText(f.backupKeep) };
}

/** Saving these restarts the server (the desktop app listens anew). */
export function restartsServer(saved: DesktopSettings, f: SettingsForm): boolean {
  const next = bodyOf(f);
  return next.port !== saved.port || next.lan !== saved.lan || next.uiLan !== saved.uiLan;
}

/** The back office's address after a port change: this page's, on the new port. */
export function addressOn(port: number, location: Pick<Location, 'protocol' | 'hostname' | 'pathname'>): string {
  // An IPv6 hostname keeps its brackets in Location.
  return `${location.protocol}//${location.hostname}:${port}${location.pathname}`;
}
