import type { Plan } from '../domain/plans.js';

/**
 * What the demo seed has created before the resources of issue 3 add theirs: each resource's
 * seed function receives it inside the seed's one transaction.
 */
export interface DemoContext {
  contractId: string;
  plan: Plan;
  /** The demo's two stores: [main, second]. */
  storeIds: [string, string];
  /** Category ids by category code (see RETAIL_CATEGORIES / FOOD_CATEGORIES in demo.ts). */
  categoryIds: Record<string, string>;
}
