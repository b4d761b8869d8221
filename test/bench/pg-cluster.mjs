// A throwaway PostgreSQL cluster for the benchmarks (issue 23), with PostgreSQL's durable defaults
// (fsync on, as a head office runs it), from Debian's package: initdb and pg_ctl in a temp dir, as
// the postgres user when run as root, on a free port of 127.0.0.1; stop() removes it. With
// POS_BENCH_DATABASE_URL set, that server is used instead and nothing is started.
import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Whether PostgreSQL's server programs are installed (the benchmarks skip its cases if not). */
export const postgresInstalled = () => existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').length > 0;

export async function startCluster() {
  if (process.env.POS_BENCH_DATABASE_URL) return { url: process.env.POS_BENCH_DATABASE_URL, stop() {} };
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const bin = join('/usr/lib/postgresql', versions[0], 'bin');
  const asRoot = process.getuid?.() === 0;
  const run = (tool, args) => execFileSync(asRoot ? 'runuser' : join(bin, tool), asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const dir = mkdtempSync(join(tmpdir(), 'pos-bench-pg-'));
  if (asRoot) {
    const [, , uid, gid] = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:')).split(':');
    chownSync(dir, Number(uid), Number(gid));
  }
  const data = join(dir, 'data');
  const port = await new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = s.address();
      s.close(() => res(free));
    });
  });
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
    appendFileSync(join(data, 'postgresql.conf'), "listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\n");
    run('pg_ctl', ['start', '-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${port}`]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new empty database on the cluster; its URL. */
export async function createDatabase(clusterUrl, name) {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
