import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { isBusyError } from '../../db/write.js';
import { raiseJsonCallback, STOCK_BULK_EVENT } from '../../events/webhook-events.js';
import { StockBulkJobs, type StockActor, type StockBulkJob, type StockRepo } from './repo.js';
import type { BulkAddStock } from './schema.js';

/** How often, and how long apart, a bulk add that finds the database locked is tried again. */
const BUSY_TRIES = 5;
const BUSY_PAUSE_MS = 1000;

type JobLog = Pick<FastifyBaseLogger, 'error'>;

/**
 * POST /stock/add/bulk answers before it applies its entries. accept() stores the request in the
 * write that mints its requestId, so what was answered survives a stop or a crash; the jobs are
 * then applied after the answer, one at a time in request order. Each apply is one write: the
 * entries (all or none), the completion notice to the request's callbackUrl, and the removal of
 * the stored job, so a job is applied once. start() applies what a previous run left stored.
 *
 * The notice is the platform's stock event body (contractId, event pos:stock, action bulk-update,
 * ids: the movements made with their product and store) plus requestId, status (success or
 * failed) and errors (each refused entry as `[stock[i].field] reason`). A failure of our own is a
 * failed notice without errors.
 */
export class BulkAddJobs {
  private readonly jobs: StockBulkJobs;
  private closed = false;
  /** The next step, when one is due: right after this turn, or after a busy pause. */
  private next: { cancel(): void } | null = null;
  /** How many times the job at the head of the queue found the database locked. */
  private busyTries = 0;

  constructor(
    private readonly deps: AppDeps,
    private readonly stock: StockRepo,
    private readonly log: JobLog,
  ) {
    this.jobs = new StockBulkJobs(deps.db);
  }

  /** Stores an accepted request and returns its requestId; it is applied after this turn of the event loop (after the answer). */
  accept(contractId: string, body: BulkAddStock, actor: StockActor): number {
    const { writer, ids, clock } = this.deps;
    const requestId = writer.write(() => {
      const minted = Number(ids.next('stock_bulk_requests'));
      this.jobs.insert({ contractId, requestId: minted, body, actor }, clock.now().getTime());
      return minted;
    });
    this.kick();
    return requestId;
  }

  /** Applies the jobs a previous run left stored (the server stopped between an answer and its apply), then the new ones. */
  start(): void {
    this.kick();
  }

  /** Stops applying; the jobs still stored are applied on the next start. */
  close(): void {
    this.closed = true;
    this.next?.cancel();
    this.next = null;
  }

  private kick(): void {
    if (this.closed || this.next) return;
    const immediate = setImmediate(() => this.step());
    this.next = { cancel: () => clearImmediate(immediate) };
  }

  /** Applies the oldest stored job, then asks for the next step. */
  private step(): void {
    this.next = null;
    if (this.closed) return;
    let job: StockBulkJob | undefined;
    let error: unknown;
    try {
      job = this.jobs.next();
      if (!job) return;
      this.apply(job);
    } catch (caught) {
      error = caught;
    }
    if (error !== undefined) {
      if (isBusyError(error) && ++this.busyTries < BUSY_TRIES) {
        const timer = setTimeout(() => this.step(), BUSY_PAUSE_MS).unref();
        this.next = { cancel: () => clearTimeout(timer) };
        return;
      }
      this.busyTries = 0;
      this.log.error({ err: error, requestId: job?.requestId }, 'stock bulk add failed');
      // Left stored when even its failure cannot be recorded: the next request or start tries it again.
      if (!job || !this.fail(job)) return;
    }
    this.busyTries = 0;
    this.kick();
  }

  /** The entries, their notice and the job's removal in one write; nothing when an earlier write already applied it. */
  private apply(job: StockBulkJob): void {
    this.deps.writer.write(() => {
      if (!this.jobs.take(job.contractId, job.requestId)) return;
      const { moved, errors } = this.stock.bulkAdd(job.contractId, job.body.stock, job.actor);
      const ids = moved.flatMap((m) => (m.movement ? [{ id: String(m.movement.movement_id), productId: String(m.stock.product_id), storeId: String(m.stock.store_id) }] : []));
      this.notify(job, errors.length ? 'failed' : 'success', ids, errors.map((e) => `[stock[${e.index}].${e.field}] ${e.message}`));
    });
  }

  /** A failed notice without errors, and the job's removal, in one write; false when that could not be written. */
  private fail(job: StockBulkJob): boolean {
    try {
      this.deps.writer.write(() => {
        if (this.jobs.take(job.contractId, job.requestId)) this.notify(job, 'failed', [], []);
      });
      return true;
    } catch (again) {
      this.log.error({ err: again, requestId: job.requestId }, 'stock bulk add: the failure notice could not be recorded');
      return false;
    }
  }

  private notify(job: StockBulkJob, status: 'success' | 'failed', ids: unknown[], errors: string[]): void {
    const { contractId, requestId, body } = job;
    raiseJsonCallback(
      { db: this.deps.db, ids: this.deps.ids, clock: this.deps.clock, writer: this.deps.writer },
      {
        contractId,
        url: body.callbackUrl,
        event: STOCK_BULK_EVENT,
        action: 'bulk-update',
        body: { contractId, event: STOCK_BULK_EVENT, action: 'bulk-update', requestId, status, ids, errors },
        cause: { route: 'POST /stock/add/bulk', requestId },
      },
    );
  }
}

const jobsOfDeps = new WeakMap<object, BulkAddJobs>();

/** The bulk-add jobs of an app's deps (the stock routes make them when the app is built). */
export function makeBulkAddJobs(deps: AppDeps, stock: StockRepo, log: JobLog): BulkAddJobs {
  const jobs = new BulkAddJobs(deps, stock, log);
  jobsOfDeps.set(deps, jobs);
  return jobs;
}

/** The bulk-add jobs of the last app built on these deps. */
export const bulkAddJobsOf = (deps: object): BulkAddJobs | undefined => jobsOfDeps.get(deps);
