import { tableUseTotals } from '../../domain/checkout.js';
import { formatDateTime } from '../../domain/time.js';
import type { TableUse } from '../orders/schema.js';
import type { TableUseExtras, TableUseHistoryRow } from './repo.js';
import type { TableUseRecord } from './schema.js';

/**
 * A table use as the platform's TableUse answers it. This server keeps no table charge, service
 * charge or temporary sale (仮販売), so those read "0", 0 and null; `transactionHeadId` is the
 * sale its checkout made or linked.
 */
export function presentTableUseRecord(row: TableUseHistoryRow, plain: TableUse, extras: TableUseExtras, zone: string): TableUseRecord {
  const totals = tableUseTotals(extras.items.get(row.table_use_id) ?? []);
  const groups = JSON.parse(row.customer_group_ids) as number[];
  const reservation = extras.reservations.get(row.table_use_id);
  return {
    id: plain.id,
    storeId: plain.storeId,
    tables: plain.tables,
    number: row.number,
    status: row.status,
    started: formatDateTime(row.ins_at, zone),
    ended: row.ended_at === null ? null : formatDateTime(row.ended_at, zone),
    customerGroups: groups.map((g) => ({ id: String(g), name: extras.groupNames.get(g) ?? '' })),
    quantity: totals.quantity,
    tableChargePerPerson: '0',
    serviceChargeRate: 0,
    totalPrice: totals.totalPrice,
    tempTransactionHeadId: null,
    transactionHeadId: row.transaction_head_id === null ? null : String(row.transaction_head_id),
    reservationId: reservation === undefined ? null : String(reservation),
    memo: row.memo,
  };
}
