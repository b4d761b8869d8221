import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { dirname, join } from 'node:path';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../http/auth.js';
import { commonErrorResponses, Forbidden, NotFound, problemSchema } from '../http/problem.js';
import { isLoopback } from '../http/ui.js';
import { assertPortUsable, assertWritableFolder } from './checks.js';
import { currentSettings, desktopSettingsFile, readRaw, writeSettings } from './file.js';
import { desktopSettingsBody, desktopSettingsRead, desktopSettingsView } from './schema.js';

/**
 * The desktop app's settings (ours), for the back office's settings screen: port, LAN access,
 * start at login, backups. They decide who on the LAN reaches this PC, so only a staff member
 * logged in on this PC reads them, and one holding staff_edit_all (the store's administrator
 * right; RIGHTS_TABLE's `WRITE /desktop_settings`) changes them; an app token never does. The
 * shell applies a change by itself. A server the desktop app did not start reads as
 * `{ desktopApp: false }` and refuses a change (404).
 */
export default function desktopSettingsRoutes(deps: AppDeps, env: NodeJS.ProcessEnv = process.env): FastifyPluginAsyncZod {
  const file = desktopSettingsFile(env);
  // backups.ts's default: <data-dir>/backups, beside the database.
  const defaultBackupFolder = join(dirname(deps.db.name), 'backups');
  const tags = ['desktop'];

  /** A staff member logged in on this PC (loopback, a user token); rights are RIGHTS_TABLE's. */
  const assertStaffOnThisPc = (request: FastifyRequest): void => {
    if (!isLoopback(request.socket.remoteAddress)) throw new Forbidden('the desktop settings are read and changed on this PC only');
    if (authOf(request).staffId === null) throw new Forbidden('[token] the desktop settings are for a staff member logged in to the back office; an app token cannot use them');
  };

  return async (app) => {
    app.get(
      '/desktop_settings',
      {
        config: { scope: 'pos.stores:read' },
        schema: { tags, summary: "The desktop app's settings (ours; this PC only, a user token)", response: { 200: desktopSettingsRead, ...commonErrorResponses } },
      },
      async (request) => {
        assertStaffOnThisPc(request);
        if (!file) return { desktopApp: false as const };
        return { desktopApp: true as const, ...currentSettings(readRaw(file)), defaultBackupFolder, restartsServer: false };
      },
    );

    app.put(
      '/desktop_settings',
      {
        config: { scope: 'pos.stores:write' },
        schema: {
          tags,
          summary: "Change the desktop app's settings (ours; this PC only, a user token with staff_edit_all)",
          body: desktopSettingsBody,
          response: { 200: desktopSettingsView, 404: problemSchema, ...commonErrorResponses },
        },
      },
      async (request) => {
        assertStaffOnThisPc(request);
        if (!file) throw new NotFound('this server was not started by the desktop app: its settings are the options of `pos-backoffice serve`');
        const raw = readRaw(file);
        const before = currentSettings(raw);
        const next = request.body;
        // The port this server holds is in use by itself: only a new one is tried.
        if (next.port !== request.socket.localPort) await assertPortUsable(next.port, next.lan ? '0.0.0.0' : '127.0.0.1');
        if (next.backupFolder !== null) assertWritableFolder(next.backupFolder);
        writeSettings(file, raw, next);
        const restartsServer = before.port !== next.port || before.lan !== next.lan || before.uiLan !== next.uiLan;
        return { desktopApp: true as const, ...next, defaultBackupFolder, restartsServer };
      },
    );
  };
}
