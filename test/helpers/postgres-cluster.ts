/**
 * One PostgreSQL cluster process in a temp dir: `initdb` and `pg_ctl` from Debian's package, run as
 * the `postgres` OS user when we are root (PostgreSQL refuses to run as root), listening on
 * 127.0.0.1 only, no unix socket. fsync is off (the machine does not crash under a test) but commits
 * stay synchronous, so a commit acknowledged before `pg_ctl stop -m immediate` survives the restart.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ClusterProcess {
  port: number;
  dir: string;
  bin: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export const NOT_INSTALLED =
  'PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/initdb): run `apt-get install -y postgresql`';

/** The newest installed server version's bin dir, found at run time. */
export function postgresBinDir(root = '/usr/lib/postgresql'): string {
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) throw new Error(NOT_INSTALLED);
  return join(root, newest, 'bin');
}

const asRoot = () => process.getuid?.() === 0;

function run(bin: string, tool: string, args: string[]): Promise<void> {
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  return new Promise((resolve, reject) => {
    // stdout is not read: `pg_ctl start` leaves the server holding inherited pipes open.
    const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${tool} ${args[0] ?? ''} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

/** A free TCP port on 127.0.0.1 (a cluster's, a central that starts later, one nothing listens on). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('the postgres OS user is missing: run `apt-get install -y postgresql`');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the clusters of test runs that were killed before their teardown (a `timeout`, Ctrl-C):
 * each cluster dir names the process that owns it. On a shared machine they would pile up.
 */
export async function reapOrphanClusters(bin: string): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('pos-pg-'))) {
    const dir = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue;
    }
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    if (existsSync(join(dir, 'data'))) await destroyClusterDir(bin, dir);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** A new cluster, owned by `owner` (the process whose exit makes it an orphan). */
export async function createCluster(owner = process.pid): Promise<ClusterProcess> {
  const bin = postgresBinDir();
  await reapOrphanClusters(bin);
  const dir = mkdtempSync(join(tmpdir(), 'pos-pg-'));
  writeFileSync(join(dir, 'owner.pid'), String(owner));
  if (asRoot()) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  await run(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      "unix_socket_directories = ''",
      'fsync = off',
      'full_page_writes = off',
      'max_connections = 200',
      'shared_buffers = 32MB',
      "timezone = 'UTC'",
    ].join('\n') + '\n',
  );
  let port = 0;
  const startServer = async () => run(bin, 'pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port}`]);
  // Another process may take the free port between the probe and the bind: try a new one.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await startServer();
      break;
    } catch (e) {
      if (attempt >= 4) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-10).join('\n') : '';
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`${(e as Error).message}\n${tail}`);
      }
    }
  }
  const kill = () => run(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
  return {
    port,
    dir,
    bin,
    kill,
    start: startServer,
    async destroy() {
      await kill().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stops and removes a cluster known only by its dir (the shared one, from another process). */
export async function destroyClusterDir(bin: string, dir: string): Promise<void> {
  await run(bin, 'pg_ctl', ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w']).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
