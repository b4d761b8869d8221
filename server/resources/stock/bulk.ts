import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { isBusyError } from '../../db/write.js';
import { raiseJsonCallback, STOCK_BULK_EVENT } from '../../../sync/webhooks/events.js';
import type { StockActor, StockRepo } from './repo.js';
import type { BulkAddStock } from './schema.js';

/** How often, and how long apart, a bulk add that finds the database locked is tried again. */
const BUSY_TRIES = 5;
const BUSY_PAUSE_MS = 1000;

export interface BulkRequest {
  contractId: string;
  requestId: number;
  body: BulkAddStock;
  actor: StockActor;
}

/**
 * POST /stock/add/bulk after its answer: the entries are applied in one write (all or none) and
 * the completion notice is raised in that same write, to the request's callbackUrl: the
 * platform's stock event body (contractId, event pos:stock, action bulk-update, ids: the
 * movements made with their product and store) plus requestId, status (success or failed) and
 * errors (each refused entry as `[stock[i].field] reason`). A failure of our own is a failed
 * notice without errors.
 */
export function processBulkAdd(deps: AppDeps, repo: StockRepo, request: BulkRequest, log: FastifyBaseLogger, tries = BUSY_TRIES): void {
  const { contractId, requestId, body, actor } = request;
  const notify = (status: 'success' | 'failed', ids: unknown[], errors: string[]) =>
    raiseJsonCallback(
      { db: deps.db, ids: deps.ids, clock: deps.clock, writer: deps.writer },
      {
        contractId,
        url: body.callbackUrl,
        event: STOCK_BULK_EVENT,
        action: 'bulk-update',
        body: { contractId, event: STOCK_BULK_EVENT, action: 'bulk-update', requestId, status, ids, errors },
        cause: { route: 'POST /stock/add/bulk', requestId },
      },
    );
  try {
    deps.writer.write(() => {
      const { moved, errors } = repo.bulkAdd(contractId, body.stock, actor);
      const ids = moved.flatMap((m) => (m.movement ? [{ id: String(m.movement.movement_id), productId: String(m.stock.product_id), storeId: String(m.stock.store_id) }] : []));
      notify(errors.length ? 'failed' : 'success', ids, errors.map((e) => `[stock[${e.index}].${e.field}] ${e.message}`));
    });
  } catch (error) {
    if (isBusyError(error) && tries > 1) {
      setTimeout(() => processBulkAdd(deps, repo, request, log, tries - 1), BUSY_PAUSE_MS).unref();
      return;
    }
    log.error({ err: error, requestId }, 'stock bulk add failed');
    try {
      deps.writer.write(() => notify('failed', [], []));
    } catch (again) {
      log.error({ err: again, requestId }, 'stock bulk add: the failure notice could not be recorded');
    }
  }
}
