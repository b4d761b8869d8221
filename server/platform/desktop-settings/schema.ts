import { z } from 'zod';

/**
 * The desktop app's settings the back office edits (ours: the platform has no desktop app). The
 * same keys and rules as the shell's desktop-settings.json reader (app/electron/settings.ts and
 * backups.ts); test/electron/settings.test.ts keeps the two in step.
 */
export const desktopSettingsBody = z.strictObject({
  port: z.number().int().min(1).max(65535).meta({ description: 'the port the server listens on; the register terminals are set up with it' }),
  lan: z.boolean().meta({ description: 'serve the API to the register terminals on the LAN; false: this PC only' }),
  uiLan: z.boolean().meta({ description: 'serve the back-office UI to the LAN too; false: this PC only' }),
  startAtLogin: z.boolean().meta({ description: "start the app (in the tray) with the user's session" }),
  backupFolder: z.string().min(1).max(1024).nullable().meta({ description: 'an absolute folder for the daily backups; null: defaultBackupFolder' }),
  backupKeep: z.number().int().min(1).max(365).meta({ description: 'how many daily backups are kept' }),
});
export type DesktopSettingsBody = z.infer<typeof desktopSettingsBody>;

export const desktopSettingsView = desktopSettingsBody.extend({
  desktopApp: z.literal(true).meta({ description: 'this server was started by the desktop app' }),
  /** Null until the app's first start chose one. */
  port: z.number().int().nullable(),
  defaultBackupFolder: z.string().meta({ description: 'where the backups go when backupFolder is null' }),
  restartsServer: z.boolean().meta({ description: 'true when the change of port or LAN access restarts the server (PUT only; false on GET)' }),
});
export type DesktopSettingsView = z.infer<typeof desktopSettingsView>;

/**
 * What GET answers: the settings, or (200, not 404) that this server was not started by the
 * desktop app (`npm start`, `pos-backoffice serve`), so the settings screen's ordinary visit
 * makes no failing request (issue 20) and still says why there is nothing to change.
 */
export const desktopSettingsRead = z.discriminatedUnion('desktopApp', [
  z.strictObject({ desktopApp: z.literal(false).meta({ description: 'not started by the desktop app: its settings are the options of `pos-backoffice serve`' }) }),
  desktopSettingsView,
]);

/** The defaults of a file without the key (app/electron/settings.ts DEFAULT_SETTINGS, backups.ts). */
export const DESKTOP_DEFAULTS = { lan: true, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14 } as const;
