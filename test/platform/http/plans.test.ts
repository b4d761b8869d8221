import { describe, expect, it } from 'vitest';
import { PLANS } from '../../../server/domain/plans.js';
import { assertPlanAllows, PLAN_TABLE, plansFor } from '../../../server/platform/http/plans.js';
import { ProblemError } from '../../../server/platform/http/problem.js';

const FIVE = ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'];

/** Spec §4, endpoint by endpoint: the plans each one lists (absent = no plan line). */
const SPEC: Record<string, string[] | undefined> = {
  'PATCH /customer_groups/:customer_group_id': FIVE, // 4.1
  'POST /shipping/:shipping_id/modification_request': ['retail_business'], // 4.2
  'GET /categories/:category_id': FIVE, // 4.3
  'PATCH /staffs/:staff_id': ['standard', 'premium', 'premium_plus', 'enterprise'], // 4.4
  'GET /reservations/:reservation_id': ['food_business'], // 4.5
  'GET /menu_conditions/stores/:store_id': undefined, // 4.6
  'POST /transactions/:transaction_id/dispose': FIVE, // 4.7
  'PATCH /staff_ranks/:staff_rank': ['premium_plus', 'food_business', 'retail_business'], // 4.8
  'DELETE /budget/:store_id/:year/:month': FIVE, // 4.9
  'GET /topping_groups': undefined, // 4.10
  'POST /transactions/details/out_file_async': FIVE, // 4.11
  'PATCH /shipments/:shipment_id': ['retail_business'], // 4.12
  'PATCH /reservations/:reservation_id': ['food_business'], // 4.13
  'POST /purchase_orders': ['retail_business'], // 4.14
  'POST /daily_summaries': FIVE, // 4.15
  'POST /terminals': FIVE, // 4.16
  'GET /orders/:order_id': undefined, // 4.17
  'DELETE /products/reserve_item_labels/:no': FIVE, // 4.18
};

describe('plan table', () => {
  it('has the plan line of every endpoint of spec §4', () => {
    for (const [route, plans] of Object.entries(SPEC)) {
      const [method, path] = route.split(' ');
      expect(plansFor(method!, `/:contract_id/pos${path}`), route)[plans ? 'toEqual' : 'toBeUndefined'](plans);
    }
  });

  it('lists only known plans', () => {
    for (const plans of Object.values(PLAN_TABLE)) for (const p of plans) expect(PLANS).toContain(p);
  });

  it('binds HEAD by the GET line', () => {
    expect(plansFor('HEAD', '/:contract_id/pos/categories/:category_id')).toEqual(FIVE);
  });

  it('refuses a plan not listed with 403 naming the plan', () => {
    let error: unknown;
    try {
      assertPlanAllows('enterprise', 'GET', '/:contract_id/pos/categories/:category_id');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).status).toBe(403);
    expect((error as ProblemError).message).toBe(
      "the contract's plan enterprise cannot use GET /categories/{category_id} (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    expect(() => assertPlanAllows('enterprise', 'GET', '/:contract_id/pos/topping_groups')).not.toThrow();
  });
});
