import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Right } from '../../server/platform/http/rights.js';
import { hashPasswordSync } from '../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../server/platform/auth/staff-logins.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/** GET/PUT /desktop_settings: the settings screen of the desktop app (ours, issue 21). */
describe('desktop settings', () => {
  let t: TestApp;
  let dir: string;
  let file: string;
  let admin: string;
  let clerk: string;
  const held: Server[] = [];
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen({ port: 0, host: '127.0.0.1' }, () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
  const hold = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen({ port: 0, host: '127.0.0.1' }, () => (held.push(s), resolve((s.address() as { port: number }).port)));
    });

  const userToken = async (code: string, rights: Right[]) => {
    const staffId = (await t.api('POST', '/staffs', { staffName: code, staffCode: code })).json().staffId as string;
    new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock).set(t.contractId, staffId, hashPasswordSync('correct horse 1'), rights);
    const client = t.createClient(t.contractId, ['pos.stores:read', 'pos.stores:write']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/app/${t.contractId}/token`,
      headers: { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&username=${code}&password=correct%20horse%201`,
    });
    return res.json().access_token as string;
  };

  const call = (method: 'GET' | 'PUT', token: string, body?: unknown, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method,
      url: `/${t.contractId}/pos/desktop_settings`,
      remoteAddress,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-desktop-settings-'));
    file = join(dir, 'desktop-settings.json');
    // What the desktop shell sets when it starts the server (app/electron/settings.ts serverEnv).
    process.env.POS_DESKTOP_SETTINGS = file;
    t = await makeTestApp();
    admin = await userToken('S001', ['staff_edit_all']);
    clerk = await userToken('S002', ['sales_view']);
  });
  afterEach(async () => {
    delete process.env.POS_DESKTOP_SETTINGS;
    await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const defaultBackupFolder = () => join(dirname(t.deps.db.name), 'backups');

  it('reads the file as the app does: its values, the defaults for what it lacks', async () => {
    writeFileSync(file, JSON.stringify({ port: 8080, host: '127.0.0.1', readyTimeoutSeconds: 90, backupKeep: 0 }));
    const res = await call('GET', clerk);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ desktopApp: true, port: 8080, lan: true, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14, defaultBackupFolder: defaultBackupFolder(), restartsServer: false });
    rmSync(file);
    expect((await call('GET', clerk)).json()).toMatchObject({ desktopApp: true, port: null, lan: true });
  });

  it('saves over the file, keeping keys it does not manage, and says when the server restarts', async () => {
    writeFileSync(file, JSON.stringify({ port: 8080, host: '127.0.0.1', lan: true, readyTimeoutSeconds: 90 }));
    const port = await freePort();
    const folder = join(dir, 'usb', 'backups');
    const body = { port, lan: false, uiLan: false, startAtLogin: false, backupFolder: folder, backupKeep: 30 };
    const res = await call('PUT', admin, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ desktopApp: true, ...body, defaultBackupFolder: defaultBackupFolder(), restartsServer: true });
    // The old format's `host` is dropped: `lan` replaced it.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ readyTimeoutSeconds: 90, ...body });
    expect(statSync(folder).isDirectory()).toBe(true);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    // Start at login and backups only: the server runs on.
    const again = await call('PUT', admin, { ...body, startAtLogin: true, backupFolder: null });
    expect(again.json()).toMatchObject({ restartsServer: false, backupFolder: null });
  });

  it('refuses a port another program holds, naming it, and leaves the file alone', async () => {
    writeFileSync(file, JSON.stringify({ port: 8080 }));
    const taken = await hold();
    const res = await call('PUT', admin, { port: taken, lan: false, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14 });
    expect(problem(res, 400)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: `[port] port ${taken} is in use by another program` });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ port: 8080 });
  });

  it('refuses a backup folder that is not absolute or cannot be written', async () => {
    const port = await freePort();
    const base = { port, lan: false, uiLan: false, startAtLogin: true, backupKeep: 14 };
    expect(problem(await call('PUT', admin, { ...base, backupFolder: 'backups' }), 400).detail).toBe('[backupFolder] must be an absolute folder path, not backups');
    writeFileSync(join(dir, 'a-file'), '');
    const under = join(dir, 'a-file', 'backups');
    expect(problem(await call('PUT', admin, { ...base, backupFolder: under }), 400).detail).toBe(`[backupFolder] cannot write to ${under} (ENOTDIR)`);
  });

  it('validates the body: ranges, types, every key, no other key', async () => {
    const ok = { port: 8080, lan: true, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14 };
    const cases: [unknown, string][] = [
      [{ ...ok, port: 0 }, '[port] Too small: expected number to be >=1'],
      [{ ...ok, port: 65536 }, '[port] Too big: expected number to be <=65535'],
      [{ ...ok, port: '8080' }, '[port] Invalid input: expected number, received string'],
      [{ ...ok, lan: 'yes' }, '[lan] Invalid input: expected boolean, received string'],
      [{ ...ok, backupKeep: 366 }, '[backupKeep] Too big: expected number to be <=365'],
      [{ ...ok, host: '0.0.0.0' }, '[host] is not a known field'],
      [(({ startAtLogin: _s, ...rest }) => rest)(ok), '[startAtLogin] is required'],
    ];
    for (const [body, detail] of cases) {
      expect(problem(await call('PUT', admin, body), 400), JSON.stringify(body)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
    }
  });

  it('is for a staff member on this PC: not from the LAN, not with an app token, changed only with staff_edit_all', async () => {
    const body = { port: await freePort(), lan: false, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14 };
    expect(problem(await call('GET', admin, undefined, '192.168.1.30'), 403).detail).toBe('the desktop settings are read and changed on this PC only');
    expect(problem(await call('PUT', admin, body, '192.168.1.30'), 403).detail).toBe('the desktop settings are read and changed on this PC only');
    expect(problem(await call('GET', t.token), 403).detail).toBe('[token] the desktop settings are for a staff member logged in to the back office; an app token cannot use them');
    expect(problem(await call('PUT', clerk, body), 403).detail).toBe('[right] the user token lacks the right staff_edit_all');
    expect(problem(await call('GET', 'not-a-token'), 401).detail).toBe('the access token is not valid');
    // IPv4 on a dual-stack listener, and IPv6's own loopback, are this PC.
    expect((await call('GET', clerk, undefined, '::ffff:127.0.0.1')).statusCode).toBe(200);
    expect((await call('GET', clerk, undefined, '::1')).statusCode).toBe(200);
  });

  it('on a server the desktop app did not start: reads as such (200, so the screen asks without failing), refuses a change', async () => {
    delete process.env.POS_DESKTOP_SETTINGS;
    const headless = await makeTestApp();
    try {
      const token = await tokenOf(headless, ['staff_edit_all']);
      const inject = (method: 'GET' | 'PUT', remoteAddress = '127.0.0.1', bearer = token) =>
        headless.app.inject({
          method,
          url: `/${headless.contractId}/pos/desktop_settings`,
          remoteAddress,
          headers: { authorization: `Bearer ${bearer}` },
          ...(method === 'PUT' ? { payload: { port: 8080, lan: true, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14 } } : {}),
        });
      const res = await inject('GET');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ desktopApp: false });
      expect(problem(await inject('PUT'), 404)).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'this server was not started by the desktop app: its settings are the options of `pos-backoffice serve`',
      });
      // Still this PC's and a person's only.
      expect(problem(await inject('GET', '192.168.1.30'), 403).detail).toBe('the desktop settings are read and changed on this PC only');
      expect(problem(await inject('GET', '127.0.0.1', headless.token), 403).detail).toBe('[token] the desktop settings are for a staff member logged in to the back office; an app token cannot use them');
    } finally {
      await headless.close();
    }
  });

  /** A user token on another test app. */
  async function tokenOf(app: TestApp, rights: Right[]): Promise<string> {
    const staffId = (await app.api('POST', '/staffs', { staffName: 'S9', staffCode: 'S9' })).json().staffId as string;
    new StaffLoginRepo(app.deps.db, app.deps.writer, app.clock).set(app.contractId, staffId, hashPasswordSync('correct horse 1'), rights);
    const client = app.createClient(app.contractId, ['pos.stores:read', 'pos.stores:write']);
    const res = await app.app.inject({
      method: 'POST',
      url: `/app/${app.contractId}/token`,
      headers: { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&username=S9&password=correct%20horse%201',
    });
    return res.json().access_token as string;
  }
});
