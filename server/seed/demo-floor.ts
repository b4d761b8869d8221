import type { AppDeps } from '../deps.js';
import { OrderRepo } from '../restaurant/orders/repo.js';
import type { ItemInput } from '../restaurant/orders/schema.js';
import { FloorLookups } from '../restaurant/tables/lookups.js';
import type { DemoContext } from './context.js';

const HOUR = 3_600_000;
const TABLES: [name: string, seats: string][] = [
  ['A1', '2'],
  ['A2', '2'],
  ['A3', '4'],
  ['B1', '4'],
  ['B2', '6'],
  ['Counter', '8'],
];

/**
 * Restaurant floor of a Food Business demo contract: tables of the main store, four
 * reservations (waiting, coming, one imported from an external system, one seated at a table
 * use) and the seated party's order of three items, on the demo menus when they exist.
 * Other plans have no floor: reservations are Food Business only.
 */
export function seedFloor(deps: AppDeps, ctx: DemoContext): Record<string, number> {
  if (ctx.plan !== 'food_business') return { tables: 0, reservations: 0, tableUses: 0, orders: 0 };
  const orders = new OrderRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tables = orders.reservations.tables;
  const reservations = orders.reservations;
  const { contractId } = ctx;
  const [storeId] = ctx.storeIds;

  return deps.writer.write(() => {
    const tableIds = TABLES.map(([name, seats], i) =>
      String(tables.create(contractId, { storeId, name, seats, displaySequence: String(i + 1) }).table_id),
    );
    const now = deps.clock.now().getTime();
    const at = (hoursFromNow: number) => new Date(now + hoursFromNow * HOUR).toISOString();
    const party = (adults: number, children: number) => ({ adults, children });
    const book = (from: number, extra: Partial<Parameters<typeof reservations.create>[1]>) =>
      reservations.create(contractId, { storeId, startAt: at(from), endAt: at(from + 2), persons: party(2, 0), ...extra });

    book(8, { reservationPersonName: '山田 太郎', reservationPersonNameKana: 'ヤマダ タロウ', tableIds: [tableIds[2]!], phoneNumber: '090-1234-5678' });
    book(0.5, { status: 'coming', persons: party(2, 2), reservationPersonName: 'Smith', tableIds: [tableIds[4]!], note: 'High chair please' });
    book(26, { reservationCode: 'GOURMET-0001', reservedFrom: 'gourmet-site', reservationPersonName: '佐藤 花子', persons: party(4, 0) });
    const seated = book(-0.5, { reservationPersonName: 'Tanaka', tableIds: [tableIds[0]!] });

    const menus = new FloorLookups(deps.db).normalMenusOf(contractId, storeId, 3);
    const fromMenu = (i: number, fallback: string): Pick<ItemInput, 'menuId' | 'name'> =>
      menus[i] ? { menuId: String(menus[i]!.menu_id) } : { name: fallback };
    orders.create(contractId, {
      storeId,
      tableIds: [tableIds[0]!],
      reservationId: String(seated.reservation_id),
      items: [
        { ...fromMenu(0, 'Blend coffee'), status: 'provided', sellingPrice: { amount: '480' } },
        { ...fromMenu(1, 'Carbonara'), quantity: 2, sellingPrice: { amount: '1280' }, discount: { type: 'couponRate', rateCoupon: '10' }, timeLimit: 90 },
        { ...fromMenu(2, 'Margherita'), sellingPrice: { amount: '1400', taxType: 'reduced' }, toppings: [{ name: 'Extra basil', amount: '100' }] },
      ],
    });
    return { tables: tableIds.length, reservations: 4, tableUses: 1, orders: 1 };
  });
}
