import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logLine, readLogTail, RotatingLog } from '../../app/electron/log-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pos-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
const line = (n: number) => `line ${String(n).padStart(3, '0')} ${'x'.repeat(20)}`; // 29 bytes + newline

describe('the log file', () => {
  it('writes without waiting for the disk, creating its folder, and has every line once flushed', async () => {
    const file = join(dir, 'logs', 'server.log');
    const log = new RotatingLog(file);
    log.write('first');
    log.write('second');
    // write() only queued them: the file is written asynchronously, off the caller's turn.
    expect(existsSync(file)).toBe(false);
    await log.flush();
    expect(read(file)).toBe('first\nsecond\n');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    await log.close();
    log.write('after close');
    await log.flush();
    expect(read(file)).toBe('first\nsecond\n');
  });

  it('rotates by size, keeping the newest lines and a fixed number of old files', async () => {
    const file = join(dir, 'server.log');
    const log = new RotatingLog(file, { maxBytes: 100, keep: 2 });
    for (let n = 1; n <= 12; n += 1) {
      log.write(line(n));
      // Some written one at a time, some queued together: both rotate at the limit.
      if (n % 4 === 0) await log.flush();
    }
    await log.close();
    // 30 bytes a line, 100 a file: three lines each; lines 1-3 were rotated out past .2.
    expect(read(file)).toBe(`${line(10)}\n${line(11)}\n${line(12)}\n`);
    expect(read(`${file}.1`)).toBe(`${line(7)}\n${line(8)}\n${line(9)}\n`);
    expect(read(`${file}.2`)).toBe(`${line(4)}\n${line(5)}\n${line(6)}\n`);
    expect(existsSync(`${file}.3`)).toBe(false);
  });

  it('continues a file from an earlier run and rotates it when full', async () => {
    const file = join(dir, 'server.log');
    writeFileSync(file, `${'o'.repeat(89)}\n`);
    const log = new RotatingLog(file, { maxBytes: 100, keep: 1 });
    log.write('short');
    await log.flush();
    expect(read(file)).toBe(`${'o'.repeat(89)}\nshort\n`);
    log.write('this one does not fit');
    await log.close();
    expect(read(file)).toBe('this one does not fit\n');
    expect(read(`${file}.1`)).toBe(`${'o'.repeat(89)}\nshort\n`);
  });

  it('drops what the disk cannot take in time, and says how much', async () => {
    const file = join(dir, 'server.log');
    const log = new RotatingLog(file, { maxPendingBytes: 60 });
    for (let n = 1; n <= 10; n += 1) log.write(line(n));
    await log.close();
    const lines = read(file).trim().split('\n');
    // The first went to disk at once, two more fit the queue, seven were dropped.
    expect(lines.filter((l) => l.startsWith('line '))).toEqual([line(1), line(2), line(3)]);
    expect(lines.find((l) => l.includes('dropped'))).toMatch(/^\S+ shell 7 log line\(s\) dropped: the disk did not keep up$/);
  });

  it('never throws when the file cannot be written', async () => {
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const log = new RotatingLog(join(blocker, 'server.log'));
    log.write('lost');
    await log.close();
    expect(statSync(blocker).isFile()).toBe(true);
  });

  it('formats a line with time and source, and reads the last lines back for the error page', async () => {
    expect(logLine('shell', 'restarting', new Date('2026-11-22T01:00:00Z'))).toBe('2026-11-22T01:00:00.000Z shell restarting');
    const file = join(dir, 'server.log');
    writeFileSync(file, Array.from({ length: 100 }, (_, i) => `entry ${i}`).join('\n') + '\n');
    expect(await readLogTail(file, 3)).toEqual(['entry 97', 'entry 98', 'entry 99']);
    // Only the end of a long file is read; its first, cut line is left out.
    expect(await readLogTail(file, 100, 20)).toEqual(['entry 98', 'entry 99']);
    expect(await readLogTail(join(dir, 'missing.log'))).toEqual([]);
  });
});
