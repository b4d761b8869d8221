import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { DomainError, fieldPath } from '../../domain/errors.js';
import { AfterAnswerJobs, BulkRowsRefused } from '../../jobs/after-answer.js';
import { MasterBulkJobStore } from './job-store.js';

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

/**
 * The runner of the bulk registrations and updates of products and members: the one that applies
 * POST /stock/add/bulk after its answer (jobs/after-answer.ts), over master_bulk_jobs, whose jobs
 * name their operation (each route registers its work).
 */
export const makeMasterBulkJobs = (deps: AppDeps, log: Pick<FastifyBaseLogger, 'error'>): AfterAnswerJobs =>
  new AfterAnswerJobs(deps, log, { store: new MasterBulkJobStore(deps.db), sequence: 'master_bulk_requests', label: 'bulk request' });
