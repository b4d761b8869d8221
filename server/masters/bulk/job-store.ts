import type { Sqlite } from '../../db/open.js';
import { AcceptedJobStore, type AcceptedJob, type JobActor } from '../../jobs/accepted-job-store.js';

/** Who asked for a bulk request (kept with it; the members' writes record it). */
export type BulkActor = JobActor;

/** An accepted bulk request not yet applied (master_bulk_jobs). */
export type MasterBulkJob = AcceptedJob;

/** The accepted bulk requests of products and members, kept until each is applied (0040); each names its operation. */
export class MasterBulkJobStore extends AcceptedJobStore {
  constructor(db: Sqlite) {
    super(db, { table: 'master_bulk_jobs' });
  }
}
