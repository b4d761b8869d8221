/** OAuth scopes `pos.<area>:read|write` (DESIGN §3). */
export const SCOPE_AREAS = ['products', 'customers', 'staffs', 'stores', 'transactions', 'orders', 'inventory'] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];
export type Scope = `pos.${ScopeArea}:${'read' | 'write'}`;

export const ALL_SCOPES: readonly Scope[] = SCOPE_AREAS.flatMap((area) => [
  `pos.${area}:read` as Scope,
  `pos.${area}:write` as Scope,
]);

export const isScope = (value: string): value is Scope => (ALL_SCOPES as readonly string[]).includes(value);

/** Splits a space separated scope string; unknown names are returned in `unknown`. */
export function parseScopes(text: string): { scopes: Scope[]; unknown: string[] } {
  const names = [...new Set(text.split(/\s+/).filter(Boolean))];
  return { scopes: names.filter(isScope), unknown: names.filter((n) => !isScope(n)) };
}
