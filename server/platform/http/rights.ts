import type { FastifyRequest } from 'fastify';
import { relativeUrl } from './plans.js';
import { Forbidden } from './problem.js';

/**
 * User rights a staff member's back-office login carries (spec §5, 4.4). An app token
 * (client credentials) is limited by its scopes only; a user token (password grant) must
 * also meet every requirement RIGHTS_TABLE (below) and the route's `config.rights` name.
 */
export const RIGHTS = [
  'staff_view', // read the staff master
  'staff_edit_all', // staff management edit (all), spec 4.4
  'staff_edit_excluding_salary', // staff management edit (excluding salary), spec 4.4
  'staff_rank_edit', // write staff ranks
  'product_edit', // write products, categories, labels, menus, menu conditions, toppings, bundles
  'customer_edit', // write members, customer groups and their sections
  'sales_view', // read transactions, settlements and closings
  'daily_closing', // run a settlement, a closing or a closing's release
] as const;
export type Right = (typeof RIGHTS)[number];

export const isRight = (value: string): value is Right => (RIGHTS as readonly string[]).includes(value);

/** Splits a comma (or space) separated list; unknown names are returned in `unknown`. */
export function parseRights(text: string): { rights: Right[]; unknown: string[] } {
  const names = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  return { rights: names.filter(isRight), unknown: names.filter((n) => !isRight(n)) };
}

/** Rights stored as one space separated column; unknown names (from a newer build) are dropped. */
export const rightsFromColumn = (text: string): Right[] => text.split(' ').filter(isRight);
export const rightsToColumn = (rights: readonly Right[]): string => [...new Set(rights)].join(' ');

const STAFF_EDIT: readonly Right[] = ['staff_edit_all', 'staff_edit_excluding_salary'];

/**
 * The rights a user token needs, one table for every route (issue 10 item 8). A key is
 * `READ <prefix>` (GET, HEAD) or `WRITE <prefix>` (every other method: POST, PUT, PATCH,
 * DELETE), the prefix relative to the base path (/{contract_id}/pos or /{contract_id}/waiter)
 * and matched on whole segments: `WRITE /products` binds POST /products,
 * PATCH /products/:product_id, DELETE /products/reserve_item_labels/:no and any write a later
 * issue adds under /products, but not /product_bundle_groups (its own line). A line lists
 * alternatives: one of them suffices. Every line that matches a route applies. A route with
 * no matching line needs no right (its scope still applies).
 */
export const RIGHTS_TABLE: Readonly<Record<string, readonly Right[]>> = {
  // Masters of products (2.1 categories, 2.2 products, labels, menus and their store
  // conditions, topping groups, product bundle groups).
  'WRITE /products': ['product_edit'], // with /products/reserve_item_labels (free-item labels)
  'WRITE /categories': ['product_edit'],
  'WRITE /category_groups': ['product_edit'], // issue 14: the groups categories name
  'WRITE /menus': ['product_edit'],
  'WRITE /menu_conditions': ['product_edit'], // PUT /menu_conditions/stores/{store}/menus/{menu}
  'WRITE /topping_groups': ['product_edit'],
  'WRITE /toppings': ['product_edit'], // issue 26 (waiter): the members of topping groups
  'WRITE /topping_conditions': ['product_edit'], // issue 26 (waiter): as menu conditions
  'WRITE /product_bundle_groups': ['product_edit'],
  'WRITE /coupons': ['product_edit'], // issue 26: coupons and their items (goods, categories)
  'WRITE /product_option_groups': ['product_edit'], // issue 26: the topping groups seen from POS
  'WRITE /bargains': ['product_edit'], // issue 26: sales periods of products (セール), with their stores and targets
  'WRITE /bundles': ['product_edit'], // issue 26 (bundles): the product bundle groups seen as the platform's bundle sales
  // Members and their groups.
  'WRITE /customers': ['customer_edit'], // with /customers/{id}/point and /point/add
  'WRITE /customer_groups': ['customer_edit'],
  'WRITE /customer_group_sections': ['customer_edit'],
  // Staff (spec 4.4) and staff ranks.
  'READ /staffs': ['staff_view', ...STAFF_EDIT],
  'WRITE /staffs': STAFF_EDIT,
  'WRITE /staff_ranks': ['staff_rank_edit'],
  // Staff roles (issue 26, masters-tax): part of staff management, as the staff master.
  'READ /roles': ['staff_view', ...STAFF_EDIT],
  'WRITE /roles': STAFF_EDIT,
  // Sales: reading them; settling and closing the day. Registering a sale (POST /transactions
  // and its sub-resources) is the register's work and needs no right.
  'READ /transactions': ['sales_view'],
  'READ /adjustments': ['sales_view'],
  'READ /daily_summaries': ['sales_view'],
  'WRITE /adjustments': ['daily_closing'],
  'WRITE /daily_summaries': ['daily_closing'], // the closing and POST …/{store}/{date}/release
  // The desktop app's settings (ours, issue 21): who on the LAN reaches this PC and where the
  // database's copies go, so the store's administrator right. Reading needs no right (the route
  // itself asks for a staff login on this PC, which is not a right).
  'WRITE /desktop_settings': ['staff_edit_all'],
};

const READ_METHODS = new Set(['GET', 'HEAD']);

interface TableLine {
  kind: 'READ' | 'WRITE';
  prefix: string;
  rights: readonly Right[];
}
const LINES: readonly TableLine[] = Object.entries(RIGHTS_TABLE).map(([key, rights]) => {
  const [kind, prefix] = key.split(' ') as ['READ' | 'WRITE', string];
  if ((kind !== 'READ' && kind !== 'WRITE') || !prefix.startsWith('/')) throw new Error(`RIGHTS_TABLE: bad key ${key}`);
  return { kind, prefix, rights };
});

const underPrefix = (relative: string, prefix: string) => relative === prefix || relative.startsWith(`${prefix}/`);

const tableCache = new Map<string, readonly (readonly Right[])[]>();

/**
 * The rights the central table asks of a user token for a route as Fastify names it
 * (`/:contract_id/pos/...`): a list of requirements, each met by any one of its rights.
 */
export function tableRightsFor(method: string, routeUrl: string): readonly (readonly Right[])[] {
  const key = `${method} ${routeUrl}`;
  const cached = tableCache.get(key);
  if (cached) return cached;
  const kind = READ_METHODS.has(method.toUpperCase()) ? 'READ' : 'WRITE';
  const relative = relativeUrl(routeUrl);
  const found = LINES.filter((l) => l.kind === kind && underPrefix(relative, l.prefix)).map((l) => l.rights);
  // Keys come from registered routes only (a finite set), so the cache stays small.
  tableCache.set(key, found);
  return found;
}

const sameRights = (a: readonly Right[], b: readonly Right[]) =>
  a.length === b.length && a.every((r) => b.includes(r));

/**
 * Every requirement of a route: the central table's lines plus the route's own
 * `config.rights`. They combine with AND: a route can add a requirement, never lift one
 * (an identical requirement counts once).
 */
export function requiredRightsFor(
  method: string,
  routeUrl: string,
  routeRights?: readonly Right[],
): readonly (readonly Right[])[] {
  const table = tableRightsFor(method, routeUrl);
  if (!routeRights?.length || table.some((t) => sameRights(t, routeRights))) return table;
  return [...table, routeRights];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A user token needs at least one of these rights, in addition to what RIGHTS_TABLE
     * asks for the route; app tokens are not affected.
     */
    rights?: readonly Right[];
  }
}

const describe = (rights: readonly Right[]) =>
  rights.length === 1 ? `the right ${rights[0]}` : `one of the rights ${rights.join(', ')}`;

/**
 * 403 naming the missing rights when a user token fails a requirement of the route (the
 * table's and the route's own `config.rights`); app tokens (`held === null`) pass.
 */
export function assertRights(request: FastifyRequest, held: readonly Right[] | null): void {
  if (held === null) return;
  const url = request.routeOptions.url;
  if (url === undefined) return;
  const missing = requiredRightsFor(request.method, url, request.routeOptions.config.rights).filter(
    (anyOf) => !anyOf.some((r) => held.includes(r)),
  );
  if (missing.length) throw new Forbidden(`[right] the user token lacks ${missing.map(describe).join(' and ')}`);
}
