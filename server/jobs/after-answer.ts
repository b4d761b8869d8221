import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { isBusyError } from '../db/write.js';
import { raiseJsonCallback } from '../events/webhook-events.js';
import type { AcceptedJob, AcceptedJobStore, JobActor } from './accepted-job-store.js';

/** How often, and how long apart, a job that finds the database locked is tried again. */
const BUSY_TRIES = 5;
const BUSY_PAUSE_MS = 1000;

type JobLog = Pick<FastifyBaseLogger, 'error'>;

/** The rows of a request that the rules refused, each as `[list[i].field] reason`: nothing of it is written. */
export class BulkRowsRefused extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
    this.name = 'BulkRowsRefused';
  }
}

/** One route's work applied after its answer: its rows written, and how its completion notice names them. */
export interface AfterAnswerWork {
  /** The platform's event of the records (`pos:products`, `pos:stock`), the notice's `event`. */
  event: string;
  /** The notice's member listing what was written (`productIds`, `ids`). */
  idsKey: string;
  /** Writes every row or throws BulkRowsRefused; answers what was written, in row order. */
  apply(contractId: string, body: unknown, actor: JobActor): unknown[];
}

export interface AfterAnswerJobsOptions {
  /** Where the accepted requests wait. */
  store: AcceptedJobStore;
  /** The id sequence requestIds are minted from. */
  sequence: string;
  /** How the log names these requests (`stock bulk add`). */
  label: string;
}

/**
 * The platform's bulk routes answer before they apply their rows (POST /stock/add/bulk, the bulk
 * registrations and updates of products and members): accept() stores the request in the write
 * that mints its requestId, so what was answered survives a stop or a crash; the jobs are applied
 * after the answer, one at a time in request order, and start() applies what a previous run left
 * stored. Each apply is one write: every row (all or none), the completion notice to the
 * request's callbackUrl, and the removal of the stored job, so a job is applied once. A refused
 * request is a second write: its failed notice (each refused row named) and the job's removal,
 * nothing of its rows.
 *
 * The notice is the records' platform event (contractId, event, action bulk-update, what was
 * written) plus requestId, status (success or failed) and errors. A failure of our own is a
 * failed notice without errors.
 */
export class AfterAnswerJobs {
  private readonly works = new Map<string, AfterAnswerWork>();
  private closed = false;
  /** The next step, when one is due: right after this turn, or after a busy pause. */
  private next: { cancel(): void } | null = null;
  /** How many times the job at the head of the queue found the database locked. */
  private busyTries = 0;

  constructor(
    private readonly deps: AppDeps,
    private readonly log: JobLog,
    private readonly options: AfterAnswerJobsOptions,
  ) {}

  /** Names the work of a route (`POST /products/bulk`); its jobs are stored under that name. */
  register(operation: string, work: AfterAnswerWork): void {
    this.works.set(operation, work);
  }

  /** Stores an accepted request and returns its requestId; it is applied after this turn of the event loop (after the answer). */
  accept(contractId: string, operation: string, body: { callbackUrl: string }, actor: JobActor): number {
    if (!this.works.has(operation)) throw new Error(`no bulk operation ${operation}`);
    const { writer, ids, clock } = this.deps;
    const requestId = writer.write(() => {
      const minted = Number(ids.next(this.options.sequence));
      this.options.store.insert({ contractId, requestId: minted, operation, body, actor }, clock.now().getTime());
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
    let job: AcceptedJob | undefined;
    let error: unknown;
    try {
      job = this.options.store.next();
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
      this.log.error({ err: error, requestId: job?.requestId, operation: job?.operation }, `${this.options.label} failed`);
      // Left stored when even its failure cannot be recorded: the next request or start tries it again.
      if (!job || !this.fail(job)) return;
    }
    this.busyTries = 0;
    this.kick();
  }

  /** The rows, their notice and the job's removal in one write (nothing when an earlier write applied it); a refused request's notice in another. */
  private apply(job: AcceptedJob): void {
    const work = this.works.get(job.operation);
    if (!work) throw new Error(`no bulk operation ${job.operation}`);
    const { store } = this.options;
    try {
      this.deps.writer.write(() => {
        if (!store.take(job.contractId, job.requestId)) return;
        this.notify(job, work, 'success', work.apply(job.contractId, job.body, job.actor), []);
      });
    } catch (error) {
      if (!(error instanceof BulkRowsRefused)) throw error;
      this.deps.writer.write(() => {
        if (store.take(job.contractId, job.requestId)) this.notify(job, work, 'failed', [], error.errors);
      });
    }
  }

  /** A failed notice without errors, and the job's removal, in one write; false when that could not be written. */
  private fail(job: AcceptedJob): boolean {
    const work = this.works.get(job.operation);
    try {
      this.deps.writer.write(() => {
        if (this.options.store.take(job.contractId, job.requestId) && work) this.notify(job, work, 'failed', [], []);
      });
      return true;
    } catch (again) {
      this.log.error({ err: again, requestId: job.requestId }, `${this.options.label}: the failure notice could not be recorded`);
      return false;
    }
  }

  private notify(job: AcceptedJob, work: AfterAnswerWork, status: 'success' | 'failed', ids: unknown[], errors: string[]): void {
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
