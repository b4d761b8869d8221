import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AppDeps } from '../../deps.js';
import { isBusyError } from '../../db/write.js';
import { engineOf, postgresUrlOf } from '../../db/engine.js';
import { DOWNLOAD_VALID_MS } from '../../sales/exports/columns.js';
import { EXPORT_ENTITY, TransactionExportRepo, type ExportOutcome, type ExportRow } from '../../sales/exports/repo.js';
import type { ExportBody } from '../../sales/exports/schema.js';
import { raiseCallback } from '../../events/webhook-events.js';
import { ensureExportDir, exportFileName, removeGoneFiles, removePartialFiles, signedDownloadUrl } from './downloads.js';
import type { WorkerInput, WorkerMessage } from './worker.js';

/** 6.3's proc_name. */
export const PROC_NAME = 'get_transaction_detail_list';
/** The messages of 6.3. */
export const NO_DATA = 'no data';
export const INTERNAL_ERROR = '500 internal error';
/** An export interrupted this many times (the server stopped or crashed during it) is failed, not run again. */
export const MAX_ATTEMPTS = 2;
/** A running export's owner says it still runs it this often (transaction_exports.heartbeat_at). */
export const HEARTBEAT_MS = 5000;
/** A running export whose heartbeat is older than this was left by a process that stopped: another takes it over. */
export const STALE_MS = 30_000;

export interface RunnerLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}
const silent: RunnerLog = { info() {}, error() {} };

/**
 * The compiled worker. From dist/ it is the file beside this one; run from the TypeScript sources
 * (vitest, tsx) it is the copy `npm run build` put in dist/, since worker_threads load only JS.
 */
export function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return join(dirname(here), 'worker.js');
  return fileURLToPath(new URL('../../../dist/server/jobs/csv-export/worker.js', import.meta.url));
}

/**
 * The worker's V8 heap (its CSV thread has its own, csv-thread.ts); the server's peak memory during
 * an export is its own plus these. With V8's defaults the young generation grows to 32 MB under
 * the export's short-lived rows and the old one fills with tens of MB of garbage before it is
 * collected; the worker keeps its modules, a few batches and gzip's buffer, a few MB.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 24 };

/** The running export's progress is stored at most this often. */
const PERSIST_MS = 5000;

/** What work() answers for an export close() stopped. */
const ABANDONED: ExportOutcome = { status: 'failed', message: INTERNAL_ERROR, error: 'abandoned', rows: 0 };

export interface FinishedExport {
  contractId: string;
  requestCode: string;
  status: 'succeeded' | 'failed';
  message: string;
  rows: number;
}

/**
 * Runs the queued exports of this instance, one at a time, each in a worker thread (issue 13
 * item 2): the request only queues it. The worker's progress is kept in memory for the progress
 * endpoint (and stored now and then); at the end the outcome and its 6.3 notice (through the
 * webhook delivery, sync/webhooks) commit in one transaction. Emits 'progress' ({requestCode, rows, total}) and 'finished' (FinishedExport).
 *
 * Several central processes on one database each run a runner. A runner claims a queued export
 * as its owner and beats (heartbeat_at) every HEARTBEAT_MS while it runs it; a runner that stops
 * clears its heartbeat. On start and every HEARTBEAT_MS after, a runner takes over the exports
 * left `running` whose heartbeat is cleared or older than STALE_MS (their process stopped or
 * crashed), and at start those an earlier run of its own data dir left (a crash: a store PC's
 * restart resumes its export at once, as before owners), never one another live process is
 * writing: each is queued again from scratch, once; one
 * that was already started MAX_ATTEMPTS times is failed with `500 internal error` (and its
 * notice), so an export that brings the server down cannot do it for ever. An owner that finds
 * its export taken over (it stalled past STALE_MS) stops it and records nothing. On PostgreSQL the
 * worker also stores the finished file in the database (worker.ts), so the download URL works
 * whichever process answers it (sales/exports/routes.ts).
 */
export class ExportRunner extends EventEmitter {
  /** A progress update every this many rows (tests lower it). */
  progressEvery = 10_000;
  /** How often the owner beats while it runs an export (tests lower it). */
  heartbeatMs = HEARTBEAT_MS;
  private readonly repo: TransactionExportRepo;
  private draining: Promise<void> | null = null;
  private wanted = false;
  private worker: Worker | null = null;
  private closed = false;
  /** The running export's progress as the worker last said it (stored only now and then). */
  private current: { exportId: string; rows: number; total: number | null } | null = null;
  /**
   * This runner, as transaction_exports.owner names it: its host and data dir (`home`), then what
   * makes it unique to the process and the runner.
   */
  readonly owner: string;
  /**
   * The owners' names of this host and data dir begin so. A data dir is one process's (each central
   * process has its own), so at start an export still owned from here was left by an earlier run
   * that stopped: it is taken over at once, whatever its heartbeat (as on a store PC's restart).
   */
  private readonly home: string;
  /** Settles when the start's take-over is done (tests wait for it). */
  recovered: Promise<void> = Promise.resolve();
  private sweeper: NodeJS.Timeout | null = null;
  /** Set when another process took over the export this runner runs. */
  private lost = false;

  constructor(
    private readonly deps: Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock'>,
    /** The base of download URLs, asked when a file is done (the port is known only once listening). */
    private readonly publicBase: () => string,
    private readonly log: RunnerLog = silent,
  ) {
    super();
    this.repo = new TransactionExportRepo(deps.db);
    this.home = ownerHome(deps.db);
    this.owner = `${this.home}${process.pid}:${randomBytes(6).toString('hex')}`;
  }

  /** Recovers what a previous run left, then runs the queue; then looks for stopped owners' exports now and then. */
  start(): void {
    this.recovered = this.recover(true).then(() => this.kick());
    this.sweeper = setInterval(() => {
      void this.recover(false).then((requeued) => requeued && this.kick());
    }, HEARTBEAT_MS);
    this.sweeper.unref();
  }

  /**
   * Takes over the exports whose owner stopped (heartbeat cleared or stale; at start also those of
   * an earlier run of this data dir): each claimed in the
   * transaction that requeues or fails it, so one process takes it. At start also removes this
   * data dir's partial files (none is being written yet); each time, the files whose export's file
   * another process's clean-up deleted. True when one was queued again.
   */
  private async recover(atStart: boolean): Promise<boolean> {
    if (this.closed) return false;
    let requeued = false;
    try {
      if (atStart) removePartialFiles(this.deps.db);
      else removeGoneFiles(this.deps.db);
      const { clock, writer } = this.deps;
      const staleBefore = () => clock.now().getTime() - STALE_MS;
      const deadOwners = atStart ? this.home : null;
      for (const row of this.repo.interrupted(staleBefore(), deadOwners)) {
        const takeOver = () => this.repo.takeOver(row.export_id, this.owner, clock.now().getTime(), staleBefore(), deadOwners);
        if (row.attempts >= MAX_ATTEMPTS) {
          const error = `interrupted ${row.attempts} times (the server stopped during the export)`;
          await this.finish(row, { status: 'failed', message: INTERNAL_ERROR, error, rows: row.rows_written }, takeOver);
        } else {
          requeued =
            writer.write(() => {
              if (!takeOver()) return false;
              this.repo.requeue(row.export_id);
              this.changed(row);
              return true;
            }) || requeued;
        }
      }
    } catch (error) {
      // A database held by another program: the next pass recovers them.
      this.log.error({ err: error }, 'CSV export recovery failed');
    }
    return requeued;
  }

  /** Runs queued exports unless it is already doing so. */
  kick(): void {
    this.wanted = true;
    if (this.closed || this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      if (this.wanted) this.kick();
    });
  }

  /** Stops: a running export is abandoned (left `running`, run again on the next start). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.worker?.terminate();
    await this.draining;
  }

  get stopped(): boolean {
    return this.closed;
  }

  /** Rows written and total of the export running now, fresher than its row. */
  live(exportId: string): { rows: number; total: number | null } | undefined {
    return this.current?.exportId === exportId ? { rows: this.current.rows, total: this.current.total } : undefined;
  }

  signedUrl(row: Pick<ExportRow, 'file_name' | 'expires_at'>): string | null {
    if (!row.file_name || row.expires_at === null) return null;
    return signedDownloadUrl(this.publicBase(), this.repo.signingKey(), row.file_name, row.expires_at);
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      this.wanted = false;
      let next: ExportRow | undefined;
      try {
        next = this.repo.nextQueued();
        if (!next) return;
        await this.run(next);
      } catch (error) {
        // The database is busy (another program's lock): try again shortly.
        this.log.error({ err: error, requestCode: next?.request_code }, 'CSV export could not be started');
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
        if (!isBusyError(error)) return;
      }
    }
  }

  private changed(row: Pick<ExportRow, 'contract_id' | 'request_code'>): void {
    this.deps.writer.changed({ contractId: row.contract_id, entity: EXPORT_ENTITY, id: row.request_code, op: 'update' });
  }

  private async run(row: ExportRow): Promise<void> {
    const { writer, clock } = this.deps;
    const claimed = writer.write(() => {
      if (!this.repo.markRunning(row.export_id, clock.now().getTime(), this.owner)) return false;
      this.changed(row);
      return true;
    });
    if (!claimed) return;
    this.log.info({ requestCode: row.request_code, contractId: row.contract_id }, 'CSV export started');
    this.lost = false;
    // The owner's heartbeat; an export taken over meanwhile (this process stalled) is stopped.
    const heartbeat = setInterval(() => {
      try {
        const mine = writer.write(() => this.repo.heartbeat(row.export_id, this.owner, clock.now().getTime()));
        if (!mine && !this.lost) {
          this.lost = true;
          this.log.error({ requestCode: row.request_code }, 'CSV export taken over by another process; stopping it here');
          void this.worker?.terminate();
        }
      } catch {
        // A busy or unreachable database skips a beat; STALE_MS allows several.
      }
    }, this.heartbeatMs);
    heartbeat.unref();
    let outcome: ExportOutcome;
    try {
      outcome = await this.work(row);
    } catch (error) {
      outcome = { status: 'failed', message: INTERNAL_ERROR, error: error instanceof Error ? (error.stack ?? error.message) : String(error), rows: 0 };
    } finally {
      clearInterval(heartbeat);
    }
    if (outcome === ABANDONED) {
      // Stopped by close(): left running without a heartbeat, for the next runner to take over at once.
      if (this.closed) {
        try {
          writer.write(() => this.repo.release(row.export_id, this.owner));
        } catch {
          // Unreachable: its heartbeat goes stale instead.
        }
      }
      return;
    }
    await this.finish(row, outcome);
  }

  /** The worker's run of one export, as an outcome (ABANDONED when close() stopped it). */
  private work(row: ExportRow): Promise<ExportOutcome> {
    const { db, writer } = this.deps;
    const fileName = exportFileName(row.export_id);
    const file = workerFile();
    if (!existsSync(file)) throw new Error(`the compiled CSV worker ${file} is missing (run npm run build)`);
    const postgresUrl = postgresUrlOf(db);
    const input: WorkerInput = {
      engine: engineOf(db),
      dbFile: db.name,
      ...(postgresUrl ? { postgresUrl } : {}),
      contractId: row.contract_id,
      zone: this.repo.zoneOf(row.contract_id),
      body: JSON.parse(row.body) as ExportBody,
      outFile: join(ensureExportDir(db), fileName),
      progressEvery: this.progressEvery,
      stored: { exportId: row.export_id, owner: this.owner },
    };
    return new Promise((resolve) => {
      let outcome: ExportOutcome | undefined;
      let total: number | null = null;
      const fail = (error: string) => (outcome ??= { status: 'failed', message: INTERNAL_ERROR, error, rows: 0 });
      const worker = new Worker(file, { workerData: { csvExport: input }, resourceLimits: WORKER_LIMITS });
      this.worker = worker;
      // The progress endpoint reads `current`; the row gets the total, then an update at most
      // every PERSIST_MS (each is a committed transaction on the server's connection).
      let persisted = -Infinity;
      const progress = (rows: number) => {
        this.current = { exportId: row.export_id, rows, total };
        this.emit('progress', { requestCode: row.request_code, rows, total });
        const now = this.deps.clock.now().getTime();
        if (rows !== 0 && now - persisted < PERSIST_MS) return;
        persisted = now;
        try {
          writer.write(() => this.repo.progress(row.export_id, rows, total));
        } catch {
          // Progress is advisory: a busy database skips one update.
        }
      };
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'total') {
          total = m.total;
          progress(0);
        } else if (m.type === 'progress') {
          progress(m.rows);
        } else if (m.type === 'done') {
          outcome ??=
            m.rows === 0
              ? { status: 'failed', message: NO_DATA, error: null, rows: 0 }
              : { status: 'succeeded', rows: m.rows, fileName, fileBytes: m.bytes, expiresAt: 0 };
        } else {
          fail(m.message);
        }
      });
      worker.on('error', (error) => fail(error.stack ?? String(error)));
      worker.on('exit', (code) => {
        this.worker = null;
        this.current = null;
        const result = outcome ?? (this.closed || this.lost ? ABANDONED : fail(`the CSV worker exited with code ${code}`));
        // A worker that died (out of memory, terminated) leaves its partial file.
        if (result.status !== 'succeeded') rmSync(`${input.outFile}.part`, { force: true });
        resolve(result);
      });
    });
  }

  /**
   * Records the outcome and raises the notice in one transaction (retried while the database is
   * busy), if `claim` holds in it: by default, that this runner still owns the export. When it
   * does not (another process took it over), nothing is recorded and this runner's file goes.
   */
  private async finish(row: ExportRow, outcome: ExportOutcome, claim: () => boolean = () => this.repo.owns(row.export_id, this.owner)): Promise<void> {
    const { writer, clock } = this.deps;
    const attempt = () =>
      writer.write(() => {
        if (!claim()) return false;
        const now = clock.now().getTime();
        const final = outcome.status === 'succeeded' ? { ...outcome, expiresAt: now + DOWNLOAD_VALID_MS } : outcome;
        this.repo.finish(row.export_id, final, now);
        this.changed(row);
        if (row.callback_url) {
          const fileUrl = final.status === 'succeeded' ? this.signedUrl({ file_name: final.fileName, expires_at: final.expiresAt }) : null;
          raiseCallback(
            { db: this.deps.db, ids: this.deps.ids, clock },
            {
              contractId: row.contract_id,
              url: row.callback_url,
              query: {
                ...(fileUrl ? { file_url: fileUrl } : {}),
                status: final.status === 'succeeded' ? 'success' : 'failed',
                message: final.status === 'succeeded' ? '' : final.message,
                proc_name: PROC_NAME,
                state: row.state,
                request_code: row.request_code,
              },
              cause: { entity: EXPORT_ENTITY, id: row.request_code },
            },
          );
        }
        return true;
      });
    for (let tries = 1; ; tries++) {
      try {
        if (attempt()) break;
        if (outcome.status === 'succeeded') this.dropFile(row.export_id, outcome.fileName);
        this.log.info({ requestCode: row.request_code }, 'CSV export outcome not recorded: another process took the export over');
        return;
      } catch (error) {
        // Nothing was written (one transaction), so trying again cannot raise the notice twice. A
        // lock held elsewhere for long leaves the export running: the next start runs it again.
        if (!isBusyError(error) || tries >= 100) {
          this.log.error({ err: error, requestCode: row.request_code }, 'CSV export outcome not recorded');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const message = outcome.status === 'succeeded' ? '' : outcome.message;
    if (outcome.status === 'failed' && outcome.error) this.log.error({ requestCode: row.request_code, error: outcome.error }, 'CSV export failed');
    else this.log.info({ requestCode: row.request_code, status: outcome.status, rows: outcome.rows }, 'CSV export finished');
    const finished: FinishedExport = { contractId: row.contract_id, requestCode: row.request_code, status: outcome.status, message, rows: outcome.rows };
    this.emit('finished', finished);
  }

  /** A file of this runner's that will not be served: its copy in the data dir and its chunks in the database. */
  private dropFile(exportId: string, fileName: string): void {
    rmSync(join(ensureExportDir(this.deps.db), fileName), { force: true });
    try {
      this.deps.writer.write(() => this.repo.deleteChunks(exportId, this.owner));
    } catch {
      // Left for the clean-up, which deletes every owner's chunks of an expired export.
    }
  }
}

/** How the owners' names of a data dir (on this host) begin; no other data dir's begin so (its path is quoted). */
export const ownerHome = (db: AppDeps['db']): string => `${hostname()} ${JSON.stringify(dirname(db.name))} `;

const runners = new WeakMap<object, ExportRunner>();

/** The one runner of an app's deps, made by the first caller (the routes, when the app is built). */
export function exportRunnerOf(deps: Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock'>, make: () => ExportRunner): ExportRunner {
  let runner = runners.get(deps);
  // An app built again on the same deps after the first was closed gets a runner of its own.
  if (!runner || runner.stopped) {
    runner = make();
    runners.set(deps, runner);
  }
  return runner;
}

export const runnerOf = (deps: object): ExportRunner | undefined => runners.get(deps);
