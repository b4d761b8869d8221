import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommand, runCommand } from '../helpers/modules.js';
import { openDeps } from '../../server/deps.js';

const mode = (path: string) => statSync(path).mode & 0o7777;

/** The database holds secret hashes, staff password hashes and members' personal data. */
describe('file modes of the data directory', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pos-modes-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Opens, writes (so the -wal and -shm files exist) and leaves the connection open. */
  const openAndWrite = (file: string) => {
    const deps = openDeps({ file });
    deps.writer.write(() => deps.db.prepare('CREATE TABLE IF NOT EXISTS mode_probe (x)').run());
    return deps;
  };

  it('a new data directory is 0700 and the database, -wal and -shm files 0600', () => {
    const dir = join(root, 'data', 'store');
    const file = join(dir, 'pos.sqlite');
    const deps = openAndWrite(file);
    expect(mode(join(root, 'data')).toString(8)).toBe('700');
    expect(mode(dir).toString(8)).toBe('700');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f).toString(8), f).toBe('600');
    deps.db.close();
  });

  it('an existing data directory and files of an earlier version (0755, 0644) are tightened', () => {
    const dir = join(root, 'data');
    const file = join(dir, 'pos.sqlite');
    // A server of an earlier version still runs: its connection keeps -wal and -shm in place.
    const running = openAndWrite(file);
    chmodSync(dir, 0o755);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) chmodSync(f, 0o644);
    const cli = openDeps({ file });
    expect(mode(dir).toString(8)).toBe('700');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f).toString(8), f).toBe('600');
    cli.db.close();
    running.db.close();
  });

  it('an empty directory made for it is tightened; a shared (sticky) one or one holding other files is left as it is', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty, { mode: 0o755 });
    chmodSync(empty, 0o755);
    openAndWrite(join(empty, 'pos.sqlite')).db.close();
    expect(mode(empty).toString(8)).toBe('700');

    const shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    openAndWrite(join(shared, 'pos.sqlite')).db.close();
    expect(mode(shared).toString(8)).toBe('1777');
    expect(mode(join(shared, 'pos.sqlite')).toString(8)).toBe('600');

    const project = join(root, 'project');
    mkdirSync(project);
    chmodSync(project, 0o755);
    writeFileSync(join(project, 'README.md'), 'not ours\n');
    openAndWrite(join(project, 'pos.sqlite')).db.close();
    expect(mode(project).toString(8)).toBe('755');
    expect(mode(join(project, 'pos.sqlite')).toString(8)).toBe('600');
  });

  it('the CLI makes them so, and `serve --demo` tightens an old demo-credentials.json', async () => {
    const dataDir = join(root, 'cli-data');
    const out: string[] = [];
    const io = { out: (line: string) => void out.push(line) };
    await runCommand(parseCommand(['contract', 'create', '--id', 'c1', '--plan', 'retail_business', '--data-dir', dataDir]), io);
    expect(mode(dataDir).toString(8)).toBe('700');
    expect(mode(join(dataDir, 'pos.sqlite')).toString(8)).toBe('600');

    writeFileSync(join(dataDir, 'demo-credentials.json'), '{}\n');
    chmodSync(join(dataDir, 'demo-credentials.json'), 0o644);
    const level = process.env.POS_LOG_LEVEL;
    process.env.POS_LOG_LEVEL = 'silent';
    const stop = await runCommand(parseCommand(['serve', '--demo', '--port', '0', '--data-dir', dataDir]), io);
    if (level === undefined) delete process.env.POS_LOG_LEVEL;
    else process.env.POS_LOG_LEVEL = level;
    try {
      expect(mode(join(dataDir, 'demo-credentials.json')).toString(8)).toBe('600');
      for (const f of ['pos.sqlite', 'pos.sqlite-wal', 'pos.sqlite-shm']) expect(mode(join(dataDir, f)).toString(8), f).toBe('600');
      expect(mode(dataDir).toString(8)).toBe('700');
    } finally {
      if (stop) await stop();
    }
  }, 60000);
});
