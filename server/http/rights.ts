import type { FastifyRequest } from 'fastify';
import { Forbidden } from './problem.js';

/**
 * User rights a staff member's back-office login carries (spec §5, 4.4). An app token
 * (client credentials) is limited by its scopes only; a user token (password grant) must
 * also hold one of the rights a route lists in `config.rights`.
 */
export const RIGHTS = [
  'staff_view', // read the staff master
  'staff_edit_all', // staff management edit (all), spec 4.4
  'staff_edit_excluding_salary', // staff management edit (excluding salary), spec 4.4
  'staff_rank_edit', // maintain staff ranks (reserved; not yet required by a route)
  'product_edit', // maintain categories and products (reserved)
  'customer_edit', // maintain customer groups and members (reserved)
  'sales_view', // read transactions and closings (reserved)
  'daily_closing', // run the daily closing (reserved)
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A user token needs at least one of these rights; app tokens are not affected. */
    rights?: readonly Right[];
  }
}

/** 403 naming the rights when a user token holds none of those the route requires. */
export function assertRights(request: FastifyRequest, held: readonly Right[] | null): void {
  const required = request.routeOptions.config.rights;
  if (!required?.length || held === null) return;
  if (required.some((r) => held.includes(r))) return;
  const names = required.length === 1 ? `the right ${required[0]}` : `one of the rights ${required.join(', ')}`;
  throw new Forbidden(`[right] the user token lacks ${names}`);
}
