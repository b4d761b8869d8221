/**
 * A PostgreSQL primary with a synchronous streaming standby, both real clusters on 127.0.0.1 in
 * temp dirs (issue 24, "a standby that takes over"): what a commit on the primary acknowledged is
 * on the standby too. Built as the README tells an operator to:
 *
 * - the primary: a cluster of postgres-cluster.ts (wal_level replica and max_wal_senders are
 *   PostgreSQL's defaults), a `replicator` role WITH REPLICATION, a pg_hba line letting it connect
 *   for replication from 127.0.0.1;
 * - the standby: `pg_basebackup -R` of the primary on another free port (-R writes
 *   primary_conninfo and standby.signal), application_name `standby1`, started and streaming;
 * - then `synchronous_standby_names = 'standby1'` on the primary, and the helper waits for
 *   pg_stat_replication to say sync_state = 'sync'.
 *
 * `promote()` is `pg_ctl promote`; `primary.kill()` is `pg_ctl stop -m immediate`. As root the
 * tools run as the postgres user (as postgres-cluster.ts does). Each dir is named pos-pg-* with an
 * owner.pid, so a run killed before `destroy` is reaped by the next (reapOrphanClusters).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createCluster, freePort, type ClusterProcess } from './postgres-cluster.js';
import type { PgCluster } from './postgres.js';

export const STANDBY_NAME = 'standby1';
const REPLICATION_USER = 'replicator';

export interface StandbyNode {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<dbName>: this server alone. */
  url(dbName?: string): string;
  /** pg_ctl stop -m immediate: the server dies as in a crash (its data dir is kept). */
  kill(): Promise<void>;
}

export interface PrimaryWithStandby {
  primary: StandbyNode & PgCluster;
  standby: StandbyNode & {
    /** pg_ctl promote -w: the standby leaves recovery and takes writes. */
    promote(): Promise<void>;
  };
  /** The URL listing both, primary first: postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/<db>?target_session_attrs=read-write. */
  url(dbName: string): string;
  /**
   * Waits until the standby has replayed all the primary wrote so far. Synchronous replication
   * (synchronous_commit on) waits for the standby to flush a commit, not to apply it: a read on
   * the standby right after a commit may not see it yet.
   */
  replayed(): Promise<void>;
  /** Rows of pg_stat_replication on the primary (application_name, state, sync_state). */
  replication(): Promise<{ application_name: string; state: string; sync_state: string }[]>;
  /** Stops both servers and removes their dirs. */
  destroy(): Promise<void>;
}

const asRoot = () => process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('the postgres OS user is missing: run `apt-get install -y postgresql`');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A PostgreSQL tool of `bin`, as the postgres user when root; rejects with its stderr. */
function run(bin: string, tool: string, args: string[], timeoutMs = 120_000): Promise<void> {
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  return new Promise((resolve, reject) => {
    // stdout is not read: `pg_ctl start` leaves the server holding inherited pipes open.
    const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${tool} ${args[0] ?? ''} failed (${code}): ${stderr.trim()}`));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const urlOf = (port: number) => (dbName = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${dbName}`;

async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The standby's data dir from a base backup of the primary, set to stream from it (-R). */
async function baseBackup(primary: ClusterProcess, data: string): Promise<void> {
  await run(primary.bin, 'pg_basebackup', [
    '-D', data,
    '-d', `host=127.0.0.1 port=${primary.port} user=${REPLICATION_USER} application_name=${STANDBY_NAME}`,
    '-X', 'stream',
    '-R',
    '--no-sync',
    '--checkpoint=fast',
  ]);
}

export async function startPrimaryWithStandby(): Promise<PrimaryWithStandby> {
  const primaryCluster = await createCluster();
  const cleanups: (() => Promise<void>)[] = [() => primaryCluster.destroy()];
  const destroy = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    cleanups.length = 0;
  };
  try {
    const primaryUrl = urlOf(primaryCluster.port);
    // The replication user and its pg_hba line (initdb's trust lines allow it already; an
    // operator's cluster with password auth needs this line with scram-sha-256).
    await query(primaryUrl(), `CREATE ROLE ${REPLICATION_USER} WITH REPLICATION LOGIN`);
    appendFileSync(join(primaryCluster.dir, 'data', 'pg_hba.conf'), `host replication ${REPLICATION_USER} 127.0.0.1/32 trust\n`);
    await query(primaryUrl(), 'SELECT pg_reload_conf()');
    const [settings] = await query<{ wal_level: string; senders: string }>(primaryUrl(), "SELECT current_setting('wal_level') AS wal_level, current_setting('max_wal_senders') AS senders");
    if (settings!.wal_level !== 'replica' || Number(settings!.senders) < 1) throw new Error(`the primary cannot stream: wal_level ${settings!.wal_level}, max_wal_senders ${settings!.senders}`);

    const dir = mkdtempSync(join(tmpdir(), 'pos-pg-'));
    writeFileSync(join(dir, 'owner.pid'), String(process.pid));
    if (asRoot()) {
      const { uid, gid } = postgresUser();
      chownSync(dir, uid, gid);
    }
    const data = join(dir, 'data');
    const log = join(dir, 'server.log');
    const stopStandby = () => run(primaryCluster.bin, 'pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
    cleanups.push(async () => {
      if (existsSync(join(data, 'postmaster.pid'))) await stopStandby().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    });
    await baseBackup(primaryCluster, data);
    const conninfo = readFileSync(join(data, 'postgresql.auto.conf'), 'utf8');
    if (!/primary_conninfo/.test(conninfo) || !existsSync(join(data, 'standby.signal'))) throw new Error('pg_basebackup -R did not set the standby up');
    let port = 0;
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      try {
        await run(primaryCluster.bin, 'pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port}`]);
        break;
      } catch (e) {
        if (attempt >= 4) throw new Error(`${(e as Error).message}\n${existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-10).join('\n') : ''}`);
      }
    }
    const standbyUrl = urlOf(port);

    const replication = () => query<{ application_name: string; state: string; sync_state: string }>(primaryUrl(), 'SELECT application_name, state, sync_state FROM pg_stat_replication');
    // Synchronous from now on: a commit on the primary waits for the standby to have flushed it.
    await query(primaryUrl(), `ALTER SYSTEM SET synchronous_standby_names = '${STANDBY_NAME}'`);
    await query(primaryUrl(), 'SELECT pg_reload_conf()');
    const deadline = Date.now() + 60_000;
    for (;;) {
      const rows = await replication();
      if (rows.some((r) => r.application_name === STANDBY_NAME && r.state === 'streaming' && r.sync_state === 'sync')) break;
      if (Date.now() > deadline) throw new Error(`the standby is not streaming synchronously: ${JSON.stringify(rows)}`);
      await sleep(100);
    }

    return {
      primary: {
        port: primaryCluster.port,
        url: primaryUrl,
        kill: () => primaryCluster.kill(),
        async createDatabase() {
          const name = `t_${process.pid}_${Math.random().toString(16).slice(2, 12)}`;
          await query(primaryUrl(), `CREATE DATABASE ${name}`);
          return primaryUrl(name);
        },
        stop: destroy,
      },
      standby: {
        port,
        url: standbyUrl,
        kill: stopStandby,
        promote: () => run(primaryCluster.bin, 'pg_ctl', ['promote', '-D', data, '-w', '-t', '60']),
      },
      async replayed() {
        const [{ lsn }] = (await query<{ lsn: string }>(primaryUrl(), 'SELECT pg_current_wal_lsn()::text AS lsn')) as [{ lsn: string }];
        const end = Date.now() + 30_000;
        for (;;) {
          const [row] = await query<{ behind: boolean }>(standbyUrl(), `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`);
          if (!row!.behind) return;
          if (Date.now() > end) throw new Error(`the standby has not replayed up to ${lsn} in 30 s`);
          await sleep(20);
        }
      },
      url: (dbName) => `postgres://postgres@127.0.0.1:${primaryCluster.port},127.0.0.1:${port}/${dbName}?target_session_attrs=read-write`,
      replication,
      destroy,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}
