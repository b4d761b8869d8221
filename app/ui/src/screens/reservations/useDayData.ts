import { useEffect, useRef, useState } from 'react';
import { call, useApi } from '../../api/client';
import type { components } from '../../api/schema';
import type { Loaded } from '../../shared/load';
import { readAllPages } from '../../shared/paging';
import { dayRange, zonedIso } from '../../shared/zoned';

export type Table = components['schemas']['Table'];
export type Reservation = components['schemas']['Reservation'];
export type Order = components['schemas']['Order'];
export type TableUseStatus = components['schemas']['TableUse']['status'];

/** A table use as the day view lists it: from the day's orders, or from a reservation seated at it. */
export interface DayTableUse {
  id: string;
  status: TableUseStatus;
  tables: { id: string; name: string }[];
  /** The earliest `ordered` of the day's orders at it; null when none of them is on this day. */
  firstOrdered: string | null;
  orderCount: number;
  /** Names of the day's reservations seated at it. */
  guests: string[];
}

export interface DayData {
  tables: Table[];
  reservations: Reservation[];
  tableUses: DayTableUse[];
  truncated: boolean;
}

/** The restaurant lists answer 100 a page: a day of reservations or a table use's orders may pass one page. */
export const RESTAURANT_MAX_PAGES = 100;

const bySequence = (a: Table, b: Table) =>
  (a.displaySequence === null ? Infinity : Number(a.displaySequence)) - (b.displaySequence === null ? Infinity : Number(b.displaySequence)) ||
  a.name.localeCompare(b.name, 'ja', { numeric: true });

/**
 * The store's tables, the day's reservations (startAt within the day in the contract zone) and
 * the day's table uses. `reload` is bumped after a save to load again.
 */
export function useDay(storeId: string | null, date: string, zone: string, reload: number): Loaded<DayData> {
  const { api, contract } = useApi();
  const [result, setResult] = useState<Loaded<DayData>>({ state: 'loading' });
  const shown = useRef('');
  useEffect(() => {
    if (!storeId) return;
    let live = true;
    // Another day or store: say it is loading; a reload after a save keeps the view until it is done.
    const key = `${storeId}|${date}`;
    if (shown.current !== key) setResult({ state: 'loading' });
    shown.current = key;
    const { from, to } = dayRange(date, zone);
    const range = { from: zonedIso(from, zone), to: zonedIso(to, zone) };
    const restaurantPage = (page: number) => ({ limit: '100', page: String(page) });
    void (async () => {
      const [tables, reservations, orders] = await Promise.all([
        readAllPages((page) => call(api.GET('/{contract_id}/pos/tables', { params: { path: contract, query: { store_id: storeId, ...restaurantPage(page) } } })), { maxPages: RESTAURANT_MAX_PAGES }),
        readAllPages((page) =>
          call(
            api.GET('/{contract_id}/waiter/reservations', {
              params: { path: contract, query: { store_id: storeId, start_at_from: range.from, start_at_to: range.to, ...restaurantPage(page) } },
            }),
          ),
          { maxPages: RESTAURANT_MAX_PAGES },
        ),
        readAllPages((page) =>
          call(
            api.GET('/{contract_id}/waiter/orders', {
              params: { path: contract, query: { store_id: storeId, ordered_from: range.from, ordered_to: range.to, ...restaurantPage(page) } },
            }),
          ),
          { maxPages: RESTAURANT_MAX_PAGES },
        ),
      ]);
      if (!live) return;
      const failed = [tables, reservations, orders].find((r) => !r.ok);
      if (failed && !failed.ok) return setResult({ state: 'error', problem: failed.problem });
      if (!tables.ok || !reservations.ok || !orders.ok) return;
      const uses = collectTableUses(orders.data, reservations.data);
      // A reservation seated at a table use none of whose orders is on this day: read its head.
      for (const use of uses.filter((u) => u.orderCount === 0)) {
        const head = await call(api.GET('/{contract_id}/waiter/table_uses/{table_use_id}', { params: { path: { ...contract, table_use_id: use.id } } }));
        if (head.ok) Object.assign(use, { status: head.data.status, tables: head.data.tables });
      }
      if (!live) return;
      setResult({
        state: 'done',
        data: {
          tables: [...tables.data].sort(bySequence),
          reservations: reservations.data,
          tableUses: uses,
          truncated: !!(tables.truncated || reservations.truncated || orders.truncated),
        },
      });
    })();
    return () => {
      live = false;
    };
  }, [api, contract, storeId, date, zone, reload]);
  return result;
}

/** Groups the day's orders by table use (their embedded `tableUse`) and adds the table uses the reservations name. */
export function collectTableUses(orders: readonly Order[], reservations: readonly Reservation[]): DayTableUse[] {
  const uses = new Map<string, DayTableUse>();
  for (const order of orders) {
    const use = uses.get(order.tableUseId) ?? {
      id: order.tableUseId,
      status: order.tableUse.status,
      tables: order.tableUse.tables,
      firstOrdered: order.ordered,
      orderCount: 0,
      guests: [],
    };
    use.orderCount += 1;
    if (use.firstOrdered === null || Date.parse(order.ordered) < Date.parse(use.firstOrdered)) use.firstOrdered = order.ordered;
    uses.set(order.tableUseId, use);
  }
  for (const r of reservations) {
    if (!r.tableUseId) continue;
    const use = uses.get(r.tableUseId) ?? { id: r.tableUseId, status: 'started' as const, tables: r.tables, firstOrdered: null, orderCount: 0, guests: [] };
    if (r.reservationPersonName) use.guests.push(r.reservationPersonName);
    uses.set(r.tableUseId, use);
  }
  const time = (u: DayTableUse) => (u.firstOrdered === null ? Infinity : Date.parse(u.firstOrdered));
  return [...uses.values()].sort((a, b) => time(a) - time(b) || Number(a.id) - Number(b.id));
}
