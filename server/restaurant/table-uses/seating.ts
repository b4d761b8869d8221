import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { OrderRepo } from '../orders/repo.js';
import type { TableUseBook, TableUseHistoryRow } from './repo.js';
import type { SeatBody } from './schema.js';

/**
 * POST /table_uses (チェックイン): a party is seated at free tables of an open store, as an order
 * without a table use seats one (docs/decisions.md, table uses and orders), before anything is
 * ordered: its size, customer groups and reservation are recorded with it. One write; a refusal
 * writes nothing. A party at one table (`tableId`, as platform clients send it) hears of that
 * table as `tableId`.
 */
export function seatParty(writer: Writer, orders: OrderRepo, book: TableUseBook, contractId: string, body: SeatBody): TableUseHistoryRow {
  if (body.tableId !== undefined && body.tableIds !== undefined) throw InvalidInput.field('tableIds', 'must not be sent with tableId');
  const tableIds = body.tableIds ?? (body.tableId === undefined ? undefined : [body.tableId]);
  return writer.write(() => {
    const store = orders.reservations.tables.stores.referenced(contractId, body.storeId, { open: true });
    if (tableIds === undefined) throw InvalidInput.field('tableId', 'is required (or tableIds)');
    const use = startNaming(body.tableId !== undefined, () => orders.tableUses.start(contractId, store.store_id, tableIds, orders.reservations.tables));
    book.setPartyOf(contractId, use.table_use_id, body);
    if (body.reservationId !== undefined) {
      orders.reservations.bindToTableUse(contractId, body.reservationId, String(use.table_use_id), use.store_id, 'reservationId');
    }
    return book.find(contractId, use.table_use_id)!;
  });
}

/** The table rules name `tableIds.0`; a client that sent `tableId` reads its own field. */
function startNaming<T>(single: boolean, start: () => T): T {
  try {
    return start();
  } catch (e) {
    if (single && e instanceof InvalidInput && e.field === 'tableIds.0') throw InvalidInput.field('tableId', e.reason);
    throw e;
  }
}
