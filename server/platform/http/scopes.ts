/**
 * OAuth scopes, named as the public platform names them (DESIGN §3), so a platform client's
 * token request works unchanged. Three families: `pos.` (the POS API), `waiter.` (the
 * restaurant API under /{contract_id}/waiter) and `order-shipment.` (e-commerce orders).
 */
const POS_AREAS = ['products', 'customers', 'staffs', 'stores', 'transactions', 'stock', 'transfers', 'orders', 'suppliers', 'losses', 'stocktaking'] as const;

export const ALL_SCOPES = [
  ...POS_AREAS.flatMap((area) => [`pos.${area}:read`, `pos.${area}:write`] as const),
  'pos.stock-changes:read',
  'waiter.stores:read',
  'waiter.menus:read',
  'waiter.orders:read',
  'waiter.orders:write',
  'waiter.orders:history',
  // waiter operations (issue 26): staff calls, named as platform clients name them
  'waiter.staff-calls:read',
  'waiter.staff-calls:write',
  'order-shipment.orders:read',
  'order-shipment.orders:write',
  'order-shipment.stores:read',
  'order-shipment.stores:write',
  'order-shipment.stock:read',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export const isScope = (value: string): value is Scope => (ALL_SCOPES as readonly string[]).includes(value);

/**
 * A name of one of the three families, served or not. Clients spell some differently from one
 * another (`pos.stock-takings:read`, `waiter.menues:read`, `order-shipment.stocks:read`): such a
 * name narrows the grant (RFC 6749 §3.3) instead of failing the token request.
 */
const FAMILY = /^(pos|waiter|order-shipment)\.[a-z][a-z0-9_-]*(:[a-z][a-z0-9_-]*)?$/;

/**
 * Splits a space separated scope string into the scopes we serve, the family names we do not
 * serve (`ignored`), and names outside the families (`foreign`, an `invalid_scope`).
 */
export function parseScopes(text: string): { scopes: Scope[]; ignored: string[]; foreign: string[] } {
  const names = [...new Set(text.split(/\s+/).filter(Boolean))];
  return {
    scopes: names.filter(isScope),
    ignored: names.filter((n) => !isScope(n) && FAMILY.test(n)),
    foreign: names.filter((n) => !isScope(n) && !FAMILY.test(n)),
  };
}
