import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { STOCK_BULK_EVENT } from '../../events/webhook-events.js';
import { AcceptedJobStore } from '../../jobs/accepted-job-store.js';
import { AfterAnswerJobs, BulkRowsRefused } from '../../jobs/after-answer.js';
import type { StockActor, StockRepo } from './repo.js';
import type { BulkAddStock } from './schema.js';

type JobLog = Pick<FastifyBaseLogger, 'error'>;

const BULK_ADD = 'POST /stock/add/bulk';

/**
 * POST /stock/add/bulk answers before it applies its entries, by the runner of every bulk route
 * (jobs/after-answer.ts: stored with its requestId, applied once after the answer, all or none,
 * caught up at start, notice to callbackUrl). stock_bulk_jobs holds this route's jobs only.
 *
 * The notice is the platform's stock event body (contractId, event pos:stock, action bulk-update,
 * ids: the movements made with their product and store) plus requestId, status (success or
 * failed) and errors (each refused entry as `[stock[i].field] reason`).
 */
export class BulkAddJobs {
  private readonly runner: AfterAnswerJobs;

  constructor(deps: AppDeps, stock: StockRepo, log: JobLog) {
    const store = new AcceptedJobStore(deps.db, { table: 'stock_bulk_jobs', operation: BULK_ADD });
    this.runner = new AfterAnswerJobs(deps, log, { store, sequence: 'stock_bulk_requests', label: 'stock bulk add' });
    this.runner.register(BULK_ADD, {
      event: STOCK_BULK_EVENT,
      idsKey: 'ids',
      apply: (contractId, body, actor) => {
        // bulkAdd checks every entry before it moves any: refused, it has written nothing.
        const { moved, errors } = stock.bulkAdd(contractId, (body as BulkAddStock).stock, actor);
        if (errors.length) throw new BulkRowsRefused(errors.map((e) => `[stock[${e.index}].${e.field}] ${e.message}`));
        return moved.flatMap((m) => (m.movement ? [{ id: String(m.movement.movement_id), productId: String(m.stock.product_id), storeId: String(m.stock.store_id) }] : []));
      },
    });
  }

  /** Stores an accepted request and returns its requestId; it is applied after this turn of the event loop (after the answer). */
  accept(contractId: string, body: BulkAddStock, actor: StockActor): number {
    // Stored as a number, read back as a string (as every stored job's actor is).
    const staffId = actor.staffId === undefined || actor.staffId === null ? actor.staffId : String(actor.staffId);
    return this.runner.accept(contractId, BULK_ADD, body, { clientId: actor.clientId, staffId });
  }

  /** Applies the jobs a previous run left stored (the server stopped between an answer and its apply), then the new ones. */
  start(): void {
    this.runner.start();
  }

  /** Stops applying; the jobs still stored are applied on the next start. */
  close(): void {
    this.runner.close();
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
