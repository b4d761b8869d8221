import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../server/cli/commands.js';
import { buildApp, CommandError, parseCommand, runCommand } from '../helpers/modules.js';
import { openDeps } from '../../server/deps.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { registerClient } from '../../server/platform/auth/credentials.js';
import { StaffRepo } from '../../server/masters/staffs/repo.js';
import { testDatabase, type TestDatabase } from '../helpers/engine.js';

// The command as main runs it (parse, then run) on a real data directory; main maps a
// UsageError to exit 2 and a CommandError to exit 1 (see test/cli/serve.test.ts). On PostgreSQL
// (POS_TEST_ENGINE=postgres) the command runs on head office's database, named by POS_DATABASE_URL.
describe('pos-backoffice staff-password set', () => {
  let dataDir: string;
  let database: TestDatabase;
  let staffId: string;
  const run = async (line: string[]) => {
    const out: string[] = [];
    const env = database.postgresUrl ? { POS_DATABASE_URL: database.postgresUrl } : {};
    await runCommand(parseCommand([...line, '--data-dir', dataDir], env), { out: (l) => out.push(l) });
    return out;
  };
  /** The data dir's database, as the commands open it. */
  const open = () => openDeps({ file: databaseFile(dataDir), ...(database.postgresUrl ? { postgresUrl: database.postgresUrl } : {}) });
  const failure = async (line: string[]) => {
    try {
      await run(line);
    } catch (error) {
      expect(error).toBeInstanceOf(CommandError);
      return (error as Error).message;
    }
    throw new Error(`${line.join(' ')} succeeded`);
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pos-staff-cli-'));
    database = await testDatabase();
    await run(['contract', 'create', '--id', 'shop', '--plan', 'premium']);
    const deps = open();
    staffId = String(new StaffRepo(deps.db, deps.writer, deps.ids, deps.clock).create('shop', { staffName: 'Hanako', staffCode: 'S001' }).staff_id);
    deps.db.close();
    // The first PostgreSQL database of a run may wait for dist/ to be built and the cluster to start.
  }, 180_000);
  afterEach(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  });

  /** Serves the data directory in-process and asks for a user token. */
  const loginAndPatch = async (password: string) => {
    const deps = open();
    const app = await buildApp(deps);
    try {
      const client = registerClient(new AuthRepo(deps.db, deps.writer, deps.clock), 'shop', ['pos.staffs:write']);
      const tokenRes = await app.inject({
        method: 'POST',
        url: '/app/shop/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=password&username=S001&password=${encodeURIComponent(password)}&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
      });
      if (tokenRes.statusCode !== 200) return { token: tokenRes.statusCode, patch: null };
      const patch = await app.inject({
        method: 'PATCH',
        url: `/shop/pos/staffs/${staffId}`,
        headers: { authorization: `Bearer ${tokenRes.json().access_token}` },
        payload: { memo: 'edited by the user' },
      });
      return { token: 200, patch: patch.statusCode };
    } finally {
      await app.close();
      deps.db.close();
    }
  };

  it('sets a password and rights, prints JSON without the password, and the staff member can log in', async () => {
    const out = await run(['staff-password', 'set', '--contract', 'shop', '--staff', staffId, '--password', 'demo-pass-1', '--rights', 'staff_view,staff_edit_all']);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toEqual({ contractId: 'shop', staffId, username: 'S001', rights: ['staff_view', 'staff_edit_all'], passwordChanged: true });
    expect(out[0]).not.toContain('demo-pass-1');
    expect(await loginAndPatch('demo-pass-1')).toEqual({ token: 200, patch: 200 });
    expect(await loginAndPatch('wrong-pass-1')).toEqual({ token: 400, patch: null });
  });

  it('changes only the rights without --password; keeps them with only --password', async () => {
    await run(['staff-password', 'set', '--contract', 'shop', '--staff', staffId, '--password', 'demo-pass-1', '--rights', 'staff_edit_all']);
    const rightsOnly = JSON.parse((await run(['staff-password', 'set', '--contract', 'shop', '--staff', staffId, '--rights', 'staff_view']))[0]!);
    expect(rightsOnly).toMatchObject({ rights: ['staff_view'], passwordChanged: false });
    expect(await loginAndPatch('demo-pass-1')).toEqual({ token: 200, patch: 403 });
    const passwordOnly = JSON.parse((await run(['staff-password', 'set', '--contract', 'shop', '--staff', staffId, '--password', 'new-pass-22']))[0]!);
    expect(passwordOnly).toMatchObject({ rights: ['staff_view'], passwordChanged: true });
    expect(await loginAndPatch('demo-pass-1')).toEqual({ token: 400, patch: null });
    expect(await loginAndPatch('new-pass-22')).toEqual({ token: 200, patch: 403 });
  });

  it('fails with a one-line reason for an unknown contract or staff, or rights for a staff member without a password', async () => {
    expect(await failure(['staff-password', 'set', '--contract', 'nope', '--staff', staffId, '--password', 'demo-pass-1'])).toBe('contract nope does not exist');
    expect(await failure(['staff-password', 'set', '--contract', 'shop', '--staff', '999', '--password', 'demo-pass-1'])).toBe('staff 999 does not exist in contract shop');
    expect(await failure(['staff-password', 'set', '--contract', 'shop', '--staff', staffId, '--rights', 'staff_view'])).toBe(
      `staff ${staffId} has no password yet; give --password`,
    );
    expect(await loginAndPatch('demo-pass-1')).toEqual({ token: 400, patch: null });

    const deps = open();
    const noCode = String(new StaffRepo(deps.db, deps.writer, deps.ids, deps.clock).create('shop', { staffName: 'Taro' }).staff_id);
    deps.db.close();
    expect(await failure(['staff-password', 'set', '--contract', 'shop', '--staff', noCode, '--password', 'demo-pass-1'])).toBe(
      `staff ${noCode} has no staffCode, the username of the login; set one first (PATCH /staffs/${noCode})`,
    );
  });
});
