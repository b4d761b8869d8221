import { z } from 'zod';
import { name, oneOf, patchBody } from '../../platform/http/fields.js';
import { idParams, pagedQuery } from '../../platform/http/list-schemas.js';
import { RESTAURANT_PAGE } from '../../platform/http/paging.js';
import type { ToppingGroupRow } from './repo.js';

/** Spec 2.7 rule.condition: all (over the whole group) or category (per category). */
export const RULE_CONDITIONS = ['all', 'category'] as const;
/** createdIn when the client does not say which service made the group. */
export const DEFAULT_CREATED_IN = 'pos-backoffice';
/** The largest max/min of a rule: far above any real topping choice, small enough to type. */
export const RULE_LIMIT = 999;

const ruleOut = z
  .object({
    condition: z.enum(RULE_CONDITIONS).describe('all: the whole group; category: per category'),
    max: z.number().int(),
    min: z.number().int(),
  })
  .meta({ id: 'ToppingGroupRule' });

/** Spec 2.7, exactly: id, name, createdIn, rule. */
export const toppingGroup = z
  .object({
    id: z.string(),
    name: z.string(),
    createdIn: z.string().describe('the service that created the group'),
    rule: ruleOut.nullable().describe('null: no condition'),
  })
  .meta({ id: 'ToppingGroup' });

export type ToppingGroup = z.infer<typeof toppingGroup>;

export const toppingGroupParams = idParams('topping_group_id');

const count = z
  .number({ error: (issue) => (issue.input === undefined ? undefined : `must be an integer from 0 to ${RULE_LIMIT}`) })
  .int(`must be an integer from 0 to ${RULE_LIMIT}`)
  .min(0, `must be an integer from 0 to ${RULE_LIMIT}`)
  .max(RULE_LIMIT, `must be an integer from 0 to ${RULE_LIMIT}`);

/** A rule is replaced whole; min may not exceed max (the detail names rule.min). */
const ruleIn = z
  .strictObject({ condition: oneOf(RULE_CONDITIONS), max: count, min: count })
  .superRefine((rule, ctx) => {
    if (rule.min > rule.max) ctx.addIssue({ code: 'custom', path: ['min'], message: `must not be greater than rule.max (${rule.max})` });
  })
  .nullable();

const createdIn = name(50);

export const createToppingGroupBody = z.strictObject({
  name: name(85),
  createdIn: createdIn.optional().meta({ description: `default ${DEFAULT_CREATED_IN}` }),
  rule: ruleIn.optional().meta({ description: 'null or absent: no condition' }),
});

export const updateToppingGroupBody = patchBody({
  name: name(85).optional(),
  createdIn: createdIn.optional(),
  rule: ruleIn.optional(),
});

/** Spec 4.10: sort by id or name. */
export const TOPPING_GROUP_SORT = ['id', 'name'] as const;

export const listToppingGroupsQuery = pagedQuery({}, TOPPING_GROUP_SORT, RESTAURANT_PAGE);

export type CreateToppingGroup = z.infer<typeof createToppingGroupBody>;
export type UpdateToppingGroup = z.infer<typeof updateToppingGroupBody>;
export type ListToppingGroupsQuery = z.infer<typeof listToppingGroupsQuery>;

export function presentToppingGroup(row: ToppingGroupRow): ToppingGroup {
  return {
    id: String(row.topping_group_id),
    name: row.name,
    createdIn: row.created_in,
    rule: row.rule_condition === null ? null : { condition: row.rule_condition, max: row.rule_max!, min: row.rule_min! },
  };
}
