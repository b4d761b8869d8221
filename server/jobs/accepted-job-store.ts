import type { Sqlite } from '../db/open.js';

/** Who asked for a request applied after its answer (kept with it; the writes it makes record it). */
export interface JobActor {
  clientId?: string | null;
  staffId?: string | null;
}

/** An accepted request not yet applied. */
export interface AcceptedJob {
  contractId: string;
  requestId: number;
  /** The route that accepted it, `POST /products/bulk`: which operation applies it. */
  operation: string;
  body: unknown;
  actor: JobActor;
}

/**
 * Where a table keeps its accepted requests: `master_bulk_jobs` names each job's operation in a
 * column; a table of one operation's jobs (`stock_bulk_jobs`) has none, and names it here.
 */
export type JobTable = { table: string; operation?: undefined } | { table: string; operation: string };

interface JobRow {
  contract_id: string;
  request_id: number;
  operation?: string;
  body: string;
  client_id: string | null;
  staff_id: number | null;
}

/**
 * The accepted requests a route answered before applying them (POST /stock/add/bulk, the bulk
 * product and member routes), kept until each is applied, oldest first; one store for every such
 * table, which differ only in their name and whether they name the operation.
 */
export class AcceptedJobStore {
  private readonly insertJob;
  private readonly oldest;
  private readonly deleteJob;

  constructor(
    private readonly db: Sqlite,
    private readonly where: JobTable,
  ) {
    const { table } = where;
    const operationColumn = where.operation === undefined ? ['operation'] : [];
    const columns = ['contract_id', 'request_id', ...operationColumn, 'body', 'client_id', 'staff_id'];
    this.insertJob = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}, accepted_at) VALUES (${columns.map(() => '?').join(', ')}, ?)`);
    this.oldest = db.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY seq LIMIT 1`);
    this.deleteJob = db.prepare(`DELETE FROM ${table} WHERE contract_id = ? AND request_id = ?`);
  }

  /** Keeps an accepted request until it is applied (in the write that minted its requestId). */
  insert(job: AcceptedJob, acceptedAt: number): void {
    const staffId = job.actor.staffId === undefined || job.actor.staffId === null ? null : Number(job.actor.staffId);
    const operation = this.where.operation === undefined ? [job.operation] : [];
    this.insertJob.run(job.contractId, job.requestId, ...operation, JSON.stringify(job.body), job.actor.clientId ?? null, staffId, acceptedAt);
  }

  /** The job accepted first of those still waiting. */
  next(): AcceptedJob | undefined {
    const row = this.oldest.get() as JobRow | undefined;
    if (!row) return undefined;
    return {
      contractId: row.contract_id,
      requestId: row.request_id,
      operation: this.where.operation ?? (row.operation as string),
      // Validated by the route before it was stored.
      body: JSON.parse(row.body),
      actor: { clientId: row.client_id, staffId: row.staff_id === null ? null : String(row.staff_id) },
    };
  }

  /** Removes a job as it is applied; false when it is already gone (applied by an earlier write). */
  take(contractId: string, requestId: number): boolean {
    if (!this.db.inTransaction) throw new Error(`${this.where.table}: take() must be called inside Writer.write`);
    return this.deleteJob.run(contractId, requestId).changes > 0;
  }
}
