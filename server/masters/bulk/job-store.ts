import type { Sqlite } from '../../db/open.js';

/** Who asked for a bulk request (kept with it; the members' writes record it). */
export interface BulkActor {
  clientId?: string | null;
  staffId?: string | null;
}

/** An accepted bulk request not yet applied (master_bulk_jobs). */
export interface MasterBulkJob {
  contractId: string;
  requestId: number;
  /** The route that accepted it, `POST /products/bulk`: which operation applies it. */
  operation: string;
  body: unknown;
  actor: BulkActor;
}

interface JobRow {
  contract_id: string;
  request_id: number;
  operation: string;
  body: string;
  client_id: string | null;
  staff_id: number | null;
}

/** The accepted bulk requests of products and members, kept until each is applied (0040). */
export class MasterBulkJobStore {
  private readonly insertJob;
  private readonly oldest;
  private readonly deleteJob;

  constructor(private readonly db: Sqlite) {
    this.insertJob = db.prepare(
      'INSERT INTO master_bulk_jobs (contract_id, request_id, operation, body, client_id, staff_id, accepted_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.oldest = db.prepare('SELECT contract_id, request_id, operation, body, client_id, staff_id FROM master_bulk_jobs ORDER BY seq LIMIT 1');
    this.deleteJob = db.prepare('DELETE FROM master_bulk_jobs WHERE contract_id = ? AND request_id = ?');
  }

  /** Keeps an accepted request until it is applied (in the write that minted its requestId). */
  insert(job: MasterBulkJob, acceptedAt: number): void {
    const staffId = job.actor.staffId === undefined || job.actor.staffId === null ? null : Number(job.actor.staffId);
    this.insertJob.run(job.contractId, job.requestId, job.operation, JSON.stringify(job.body), job.actor.clientId ?? null, staffId, acceptedAt);
  }

  /** The job accepted first of those still waiting. */
  next(): MasterBulkJob | undefined {
    const row = this.oldest.get() as JobRow | undefined;
    if (!row) return undefined;
    return {
      contractId: row.contract_id,
      requestId: row.request_id,
      operation: row.operation,
      // Validated by the route before it was stored.
      body: JSON.parse(row.body),
      actor: { clientId: row.client_id, staffId: row.staff_id === null ? null : String(row.staff_id) },
    };
  }

  /** Removes a job as it is applied; false when it is already gone (applied by an earlier write). */
  take(contractId: string, requestId: number): boolean {
    if (!this.db.inTransaction) throw new Error('MasterBulkJobStore.take() must be called inside Writer.write');
    return this.deleteJob.run(contractId, requestId).changes > 0;
  }
}
