import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { terminalUrls } from '../../app/electron/lan.js';
import { messagesFor } from '../../app/electron/messages.js';
import type { OutboxSummary } from '../../app/electron/outbox.js';
import type { RunningServer } from '../../app/electron/server-process.js';
import type { ServerState } from '../../app/electron/supervisor.js';
import { backupLine, trayModel, type TrayInput } from '../../app/electron/tray.js';

const ja = messagesFor('ja');
const en = messagesFor('en-US');
const running = (restarts = 0): ServerState => ({ kind: 'running', server: { port: 8080, uiUrl: 'http://127.0.0.1:8080/ui/' } as RunningServer, restarts });
const linked = (online: boolean, depth: number): OutboxSummary => ({ depth, oldestAgeMs: depth ? 60_000 : null, linkedContracts: 1, online });
const input = (over: Partial<TrayInput>): TrayInput => ({ server: running(), outbox: linked(true, 0), lan: true, terminalUrls: ['http://192.168.1.20:8080'], ...over });
const labels = (i: TrayInput, t = ja) => trayModel(i, t).items.map((item) => (item === 'separator' ? '---' : `${item.label}${item.enabled ? '' : ' (disabled)'}`));

describe('tray icon', () => {
  it('shows the server, head office and the terminals\' address, with open, settings, restart and quit', () => {
    expect(labels(input({}))).toEqual([
      'ウィンドウを開く',
      '設定…',
      '---',
      'サーバー稼働中（ポート 8080） (disabled)',
      '本部: オンライン・未送信なし (disabled)',
      'レジ端末の接続先: http://192.168.1.20:8080 (disabled)',
      '---',
      'サーバーを再起動',
      '今すぐバックアップ',
      '---',
      '終了',
    ]);
    expect(trayModel(input({}), ja)).toMatchObject({ icon: 'ok', tooltip: 'POS Backoffice: サーバー稼働中（ポート 8080）' });
  });

  it('warns while head office is unreachable, with what waits to be sent', () => {
    const model = trayModel(input({ outbox: linked(false, 12), server: running(2) }), en);
    expect(model.icon).toBe('warn');
    expect(labels(input({ outbox: linked(false, 12), server: running(2) }), en).slice(3, 5)).toEqual(['Server running (port 8080) (restarted 2×) (disabled)', 'Head office: offline, 12 waiting (disabled)']);
    expect(labels(input({ outbox: { depth: 0, oldestAgeMs: null, linkedContracts: 0, online: null } }), en)[4]).toBe('Head office: not linked (disabled)');
    expect(labels(input({ outbox: null }), en)[4]).toBe('Head office: status unknown (disabled)');
    // Before the first read there is no head-office line at all.
    expect(labels(input({ outbox: undefined }), en)[4]).toBe('Terminals connect to http://192.168.1.20:8080 (disabled)');
  });

  it('says when the API is not on the LAN, or no LAN address exists', () => {
    expect(labels(input({ lan: false }), en)).toContain('LAN access off (this PC only) (disabled)');
    expect(labels(input({ terminalUrls: [] }), en)).toContain('No LAN address found (disabled)');
  });

  it('is red and offers a restart when the server does not serve; settings need a running server', () => {
    const cases: [ServerState, string, 'warn' | 'error'][] = [
      [{ kind: 'starting', restarts: 0 }, 'Starting the server', 'warn'],
      [{ kind: 'waiting', restarts: 1, crashes: 1, retryInMs: 2500, reason: 'the server process was killed', tail: [] }, 'The server stopped; restarting in 3 s', 'warn'],
      [{ kind: 'port-in-use', port: 8080, retryInMs: 10_000, tail: [] }, 'Port 8080 is used by another program', 'error'],
      [{ kind: 'failed', crashes: 5, reason: 'x', tail: [] }, 'The server kept stopping; no more restarts', 'error'],
      [{ kind: 'stopped' }, 'The server is stopped', 'error'],
    ];
    for (const [server, line, icon] of cases) {
      const model = trayModel(input({ server }), en);
      expect(model.icon, server.kind).toBe(icon);
      expect(model.items[3], server.kind).toEqual({ label: line, enabled: false });
      expect(model.items[1], server.kind).toEqual({ label: 'Settings…', action: 'settings', enabled: false });
      // No head-office line while the server is not running (its numbers would be stale).
      expect(labels(input({ server }), en).some((l) => l.startsWith('Head office')), server.kind).toBe(false);
      const restart = model.items.find((i) => i !== 'separator' && i.action === 'restart-server');
      expect(restart, server.kind).toEqual({ label: 'Restart Server', action: 'restart-server', enabled: server.kind !== 'starting' });
    }
    expect(trayModel(input({}), en).items.at(-1)).toEqual({ label: 'Quit', action: 'quit', enabled: true });
  });
});

describe('tray: backups and the database update', () => {
  const made = (createdAt: string) => ({ file: `/b/pos-backup-${createdAt}-daily.sqlite`, bytes: 1, createdAt });
  const fmt = (iso: string) => `<${iso.slice(0, 10)}>`;

  it('shows the last backup, or the failure since it', () => {
    expect(backupLine({ made: [] }, ja, fmt)).toBe('バックアップ: まだありません');
    expect(backupLine({ made: [made('2026-11-21T02:00:00.000Z'), made('2026-11-22T02:00:00.000Z')] }, ja, fmt)).toBe('バックアップ: <2026-11-22>');
    const failedLater = { made: [made('2026-11-21T02:00:00.000Z')], lastError: { at: '2026-11-22T02:00:00.000Z', message: 'ENOENT: the stick is not plugged in' } };
    expect(backupLine(failedLater, en, fmt)).toBe('Backup failed: ENOENT: the stick is not plugged in');
    // A failure before the last backup is over.
    expect(backupLine({ ...failedLater, made: [made('2026-11-23T02:00:00.000Z')] }, en, fmt)).toBe('Last backup: <2026-11-23>');
    expect(labels(input({ backups: { made: [] }, formatTime: fmt }))).toContain('バックアップ: まだありません (disabled)');
  });

  it('says the database is being updated while the server migrates it', () => {
    const model = trayModel(input({ server: { kind: 'starting', restarts: 0 }, migrating: true }), ja);
    expect(model.items[3]).toEqual({ label: 'データベースを更新中', enabled: false });
    expect(model.tooltip).toBe('POS Backoffice: データベースを更新中');
  });
});

describe('the terminals\' address', () => {
  const nic = (address: string, extra: Partial<NetworkInterfaceInfo> = {}) => ({ address, family: 'IPv4', internal: false, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: null, ...extra }) as NetworkInterfaceInfo;

  it('lists this PC\'s LAN addresses, private ones first, never loopback, link-local or IPv6', () => {
    const interfaces = {
      lo: [nic('127.0.0.1', { internal: true })],
      wan: [nic('203.0.113.5')],
      eth0: [nic('192.168.1.20'), { ...nic('fe80::1'), family: 'IPv6' } as NetworkInterfaceInfo],
      wifi: [nic('169.254.10.3'), nic('10.0.0.7')],
      docker: [nic('172.17.0.1')],
    };
    expect(terminalUrls(interfaces, 8080)).toEqual(['http://192.168.1.20:8080', 'http://10.0.0.7:8080', 'http://172.17.0.1:8080', 'http://203.0.113.5:8080']);
    expect(terminalUrls({}, 8080)).toEqual([]);
  });
});
