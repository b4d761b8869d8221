import { describe, expect, it } from 'vitest';
import { parseCommand, USAGE, UsageError } from '../helpers/modules.js';

const parse = (line: string, env: NodeJS.ProcessEnv = {}) => parseCommand(line.split(' ').filter(Boolean), env);
const usage = (line: string) => {
  try {
    parse(line);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`"${line}" was accepted`);
};

describe('command line', () => {
  it('serve defaults to the store role on 127.0.0.1:8080 with ./data', () => {
    expect(parse('serve')).toEqual({ name: 'serve', dataDir: './data', role: 'store', host: '127.0.0.1', port: 8080, demo: false, uiLan: false });
  });

  it('serve reads POS_HOST, POS_PORT, POS_DATA_DIR and POS_NODE; flags win', () => {
    const env = { POS_HOST: '0.0.0.0', POS_PORT: '9000', POS_DATA_DIR: '/srv/pos', POS_NODE: '7' };
    expect(parse('serve', env)).toMatchObject({ host: '0.0.0.0', port: 9000, dataDir: '/srv/pos', node: 7 });
    expect(parse('serve --port 9100 --data-dir /x --role central', env)).toMatchObject({ port: 9100, dataDir: '/x', role: 'central' });
  });

  it('parses contract, client and seed commands', () => {
    expect(parse('contract create --id shop-1 --plan premium --name Shop')).toEqual({
      name: 'contract create', dataDir: './data', id: 'shop-1', plan: 'premium', contractName: 'Shop', timeZone: 'Asia/Tokyo',
    });
    expect(parse('contract set-plan --id shop-1 --plan enterprise')).toEqual({ name: 'contract set-plan', dataDir: './data', id: 'shop-1', plan: 'enterprise' });
    expect(parse('contract set --id shop-1 --cat-cct-linkage on --member-head-office-linkage off --max-sales-terminals 25 --max-self-checkout-terminals 2 --max-smart-id-engines 0')).toEqual({
      name: 'contract set', dataDir: './data', id: 'shop-1',
      settings: { catCctLinkage: true, memberHeadOfficeLinkage: false, maxSalesTerminals: 25, maxSelfCheckoutTerminals: 2, maxSmartIdEngines: 0 },
    });
    expect(parseCommand(['client', 'create', '--contract', 'shop-1', '--scopes', 'pos.products:read pos.stores:write'], {})).toEqual({
      name: 'client create', dataDir: './data', contract: 'shop-1', scopes: ['pos.products:read', 'pos.stores:write'],
    });
    expect(parse('seed --contract shop-1 --data-dir d')).toEqual({ name: 'seed', dataDir: 'd', contract: 'shop-1' });
  });

  it('parses staff-password set: password and/or rights, rights comma separated, "" for none', () => {
    expect(parse('staff-password set --contract shop-1 --staff 1001 --password demo-pass-1 --rights staff_view,staff_edit_all')).toEqual({
      name: 'staff-password set', dataDir: './data', contract: 'shop-1', staffId: '1001', password: 'demo-pass-1', rights: ['staff_view', 'staff_edit_all'],
    });
    expect(parse('staff-password set --contract shop-1 --staff 1001 --password demo-pass-1')).toEqual({
      name: 'staff-password set', dataDir: './data', contract: 'shop-1', staffId: '1001', password: 'demo-pass-1',
    });
    expect(parseCommand(['staff-password', 'set', '--contract', 'c', '--staff', '0042', '--rights', ''], {})).toEqual({
      name: 'staff-password set', dataDir: './data', contract: 'c', staffId: '42', rights: [],
    });
    expect(parseCommand(['staff-password', 'set', '--contract', 'c', '--staff', '7', '--password', 'with spaces ok'], {})).toMatchObject({ password: 'with spaces ok' });
  });

  it('staff-password set: one-line reasons for bad arguments', () => {
    expect(usage('staff-password set --contract c --staff 1 --rights staff_view,root')).toBe(
      '--rights: unknown right root; known: staff_view, staff_edit_all, staff_edit_excluding_salary, staff_rank_edit, product_edit, customer_edit, sales_view, daily_closing',
    );
    expect(usage('staff-password set --contract c --staff 1 --password short')).toBe('--password must be at least 8 characters');
    expect(usage('staff-password set --contract c --staff 1')).toBe('staff-password set needs --password, --rights or both');
    expect(usage('staff-password set --contract c --password long-enough')).toBe('--staff is required');
    expect(usage('staff-password set --contract c --staff S001 --password long-enough')).toBe('--staff must be a staff id of 1 to 9 digits, got "S001"');
    expect(usage('staff-password set --staff 1 --password long-enough')).toBe('--contract is required');
    expect(usage('staff-password reset --contract c --staff 1')).toBe('unknown command "staff-password reset"; run pos-backoffice --help');
    expect(usage('seed --contract c --password long-enough')).toBe('seed does not take --password');
  });

  it('the usage text lists staff-password set and the rights', () => {
    expect(USAGE).toMatch(/staff-password set --contract ID --staff STAFF_ID \[--password P\] \[--rights LIST\]/);
    expect(USAGE).toContain('staff_edit_all');
  });

  it('parses backup and restore (issue 21)', () => {
    expect(parse('backup --data-dir /d')).toEqual({ name: 'backup', dataDir: '/d', kind: 'manual' });
    expect(parse('backup --to /mnt/usb --kind daily', { POS_DATA_DIR: '/d' })).toEqual({ name: 'backup', dataDir: '/d', to: '/mnt/usb', kind: 'daily' });
    expect(parse('restore --from /mnt/usb/pos-backup-20250310T090000.000Z-daily.sqlite')).toEqual({
      name: 'restore',
      dataDir: './data',
      from: '/mnt/usb/pos-backup-20250310T090000.000Z-daily.sqlite',
    });
    expect(usage('backup --kind weekly')).toBe('--kind must be manual or daily, got "weekly"');
    expect(usage('backup --from x')).toBe('backup does not take --from');
    expect(usage('restore')).toBe('--from is required: the backup file to restore');
    expect(usage('restore --from a --to b')).toBe('restore does not take --to');
    expect(USAGE).toContain('backup [--to DIR] [--kind manual|daily]');
    expect(USAGE).toContain('restore --from FILE');
  });

  it('gives a one-line reason for bad arguments', () => {
    expect(usage('frobnicate')).toBe('unknown command "frobnicate"; run pos-backoffice --help');
    expect(usage('contract create --id x')).toBe('--plan is required');
    expect(usage('contract create --id x --plan gold')).toMatch(/^--plan must be one of standard premium premium_plus food_business retail_business enterprise/);
    expect(usage('contract create --plan premium')).toBe('--id is required');
    expect(usage('contract create --id a/b --plan premium')).toMatch(/^--id "a\/b" must be/);
    expect(usage('serve --port 70000')).toBe('--port must be an integer from 0 to 65535, got "70000"');
    expect(usage('serve --role edge')).toBe('--role must be store or central, got "edge"');
    expect(usage('serve --plan premium')).toBe('serve does not take --plan');
    expect(usage('serve --bogus')).toMatch(/bogus/);
    expect(usage('client create --contract c --scopes pos.nothing:read')).toBe('--scopes: unknown scope pos.nothing:read');
    expect(usage('seed')).toBe('--contract is required');
    expect(usage('contract set --id x')).toBe('contract set needs at least one setting to change');
    expect(usage('contract set --id x --cat-cct-linkage yes')).toBe('--cat-cct-linkage must be on or off, got "yes"');
    expect(usage('contract set --id x --max-sales-terminals 1.5')).toBe('--max-sales-terminals must be an integer from 0 to 9999, got "1.5"');
    for (const line of ['frobnicate', 'serve --port 70000']) expect(usage(line)).not.toContain('\n');
  });
});
