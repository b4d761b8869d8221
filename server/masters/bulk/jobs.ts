import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { isBusyError } from '../../db/write.js';
import { DomainError, fieldPath } from '../../domain/errors.js';
import { raiseJsonCallback } from '../../events/webhook-events.js';
import { MasterBulkJobStore, type BulkActor, type MasterBulkJob } from './job-store.js';

/** How often, and how long apart, a job that finds the database locked is tried again. */
const BUSY_TRIES = 5;
const BUSY_PAUSE_MS = 1000;

type JobLog = Pick<FastifyBaseLogger, 'error'>;

/** The rows of a bulk request that the rules refused, each as `[products[i].field] reason`. */
export class BulkRowsRefused extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
    this.name = 'BulkRowsRefused';
  }
}

/**
 * Applies each row of a bulk request with `write` (one record's own write, joining the job's
 * write), collecting every refused row instead of stopping at the first; when any is refused
 * the whole request is refused (the job's write rolls back what the others wrote).
 * `rename` maps a rule's field to the body's name for it (`product_id` → `productId`).
 */
export function applyRows<T>(list: string, rows: readonly T[], write: (row: T, index: number) => string, rename: Record<string, string> = {}): string[] {
  const ids: string[] = [];
  const errors: string[] = [];
  rows.forEach((row, index) => {
    try {
      ids.push(write(row, index));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const field = error.field === undefined ? '' : `.${fieldPath(rename[error.field] ?? error.field)}`;
      errors.push(`[${list}[${index}]${field}] ${error.reason}`);
    }
  });
  if (errors.length) throw new BulkRowsRefused(errors);
  return ids;
}

/** One bulk route's work: its rows written, and how its completion notice names them. */
export interface BulkOperation {
  /** The platform's event of the records (`pos:products`), the notice's `event`. */
  event: string;
  /** The notice's member listing the ids written (`productIds`). */
  idsKey: string;
  /** Writes every row or throws BulkRowsRefused; answers the ids written, in row order. */
  apply(contractId: string, body: unknown, actor: BulkActor): string[];
}

/**
 * The platform's bulk registrations and updates of products and members answer before they
 * apply their rows, as POST /stock/add/bulk does (inventory/stock/bulk.ts, whose course this
 * follows): accept() stores the request in the write that mints its requestId, so what was
 * answered survives a stop or a crash; the jobs are applied after the answer, one at a time in
 * request order. Each apply is one write: every row (all or none), the completion notice to the
 * request's callbackUrl, and the removal of the stored job. A refused request is a second
 * write: its failed notice (each refused row named) and the job's removal, nothing of its rows.
 *
 * The notice is the records' platform event (contractId, event, action bulk-update, the ids
 * written) plus requestId, status (success or failed) and errors. A failure of our own is a
 * failed notice without errors.
 */
export class MasterBulkJobs {
  private readonly jobs: MasterBulkJobStore;
  private readonly operations = new Map<string, BulkOperation>();
  private closed = false;
  private next: { cancel(): void } | null = null;
  private busyTries = 0;

  constructor(
    private readonly deps: AppDeps,
    private readonly log: JobLog,
  ) {
    this.jobs = new MasterBulkJobStore(deps.db);
  }

  /** Names the work of a route (`POST /products/bulk`); its jobs are stored under that name. */
  register(operation: string, work: BulkOperation): void {
    this.operations.set(operation, work);
  }

  /** Stores an accepted request and returns its requestId; it is applied after this turn of the event loop (after the answer). */
  accept(contractId: string, operation: string, body: { callbackUrl: string }, actor: BulkActor): number {
    if (!this.operations.has(operation)) throw new Error(`no bulk operation ${operation}`);
    const { writer, ids, clock } = this.deps;
    const requestId = writer.write(() => {
      const minted = Number(ids.next('master_bulk_requests'));
      this.jobs.insert({ contractId, requestId: minted, operation, body, actor }, clock.now().getTime());
      return minted;
    });
    this.kick();
    return requestId;
  }

  /** Applies the jobs a previous run left stored, then the new ones. */
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

  private step(): void {
    this.next = null;
    if (this.closed) return;
    let job: MasterBulkJob | undefined;
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
      this.log.error({ err: error, requestId: job?.requestId, operation: job?.operation }, 'bulk request failed');
      // Left stored when even its failure cannot be recorded: the next request or start tries it again.
      if (!job || !this.finish(job, 'failed', [], [])) return;
    }
    this.busyTries = 0;
    this.kick();
  }

  /** The rows, their notice and the job's removal in one write; a refused request's notice in another. */
  private apply(job: MasterBulkJob): void {
    const work = this.operations.get(job.operation);
    if (!work) throw new Error(`no bulk operation ${job.operation}`);
    try {
      this.deps.writer.write(() => {
        if (!this.jobs.take(job.contractId, job.requestId)) return;
        this.notify(job, work, 'success', work.apply(job.contractId, job.body, job.actor), []);
      });
    } catch (error) {
      if (!(error instanceof BulkRowsRefused)) throw error;
      this.deps.writer.write(() => {
        if (this.jobs.take(job.contractId, job.requestId)) this.notify(job, work, 'failed', [], error.errors);
      });
    }
  }

  /** A notice without rows, and the job's removal, in one write; false when that could not be written. */
  private finish(job: MasterBulkJob, status: 'failed', ids: string[], errors: string[]): boolean {
    const work = this.operations.get(job.operation);
    try {
      this.deps.writer.write(() => {
        if (this.jobs.take(job.contractId, job.requestId) && work) this.notify(job, work, status, ids, errors);
      });
      return true;
    } catch (again) {
      this.log.error({ err: again, requestId: job.requestId }, 'bulk request: the failure notice could not be recorded');
      return false;
    }
  }

  private notify(job: MasterBulkJob, work: BulkOperation, status: 'success' | 'failed', ids: string[], errors: string[]): void {
    const { contractId, requestId } = job;
    const { callbackUrl } = job.body as { callbackUrl: string };
    raiseJsonCallback(
      { db: this.deps.db, ids: this.deps.ids, clock: this.deps.clock, writer: this.deps.writer },
      {
        contractId,
        url: callbackUrl,
        event: work.event,
        action: 'bulk-update',
        body: { contractId, event: work.event, action: 'bulk-update', requestId, status, [work.idsKey]: ids, errors },
        cause: { route: job.operation, requestId },
      },
    );
  }
}
