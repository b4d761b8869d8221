import { z } from 'zod';
import { CONDITIONS, type SaleCondition } from '../../domain/menus.js';
import { parseDateTime } from '../../domain/time.js';
import { dateTime, digits, id, oneOf } from '../../platform/http/fields.js';
import { pageQuery, RESTAURANT_PAGE } from '../../platform/http/paging.js';

/** At most this many ids per list request (spec 4.6 `menu_ids`; the platform's `topping_ids` alike). */
export const MAX_CONDITION_IDS = 100;

/**
 * `<noun>_ids`: comma separated (a repeated parameter reads the same). Every item must be an id
 * (1 to 9 digits); an empty item is refused rather than skipped, so a client that joins an empty
 * list gets a 400, not every record of the store. Duplicates count once.
 */
const idsParam = (noun: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value, ctx): number[] | undefined => {
      if (value === undefined) return undefined;
      const items = [value].flat().flatMap((v) => v.split(','));
      const bad = items.find((item) => !/^\d{1,9}$/.test(item));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `${bad === '' ? '(empty)' : JSON.stringify(bad)} is not a ${noun} id (1 to 9 digits)` });
        return z.NEVER;
      }
      if (items.length > MAX_CONDITION_IDS) {
        ctx.addIssue({ code: 'custom', message: `at most ${MAX_CONDITION_IDS} ${noun} ids, got ${items.length}` });
        return z.NEVER;
      }
      return [...new Set(items.map(Number))];
    })
    .meta({ description: `comma separated ${noun} ids, at most ${MAX_CONDITION_IDS}` });

/** The write that sets a sale condition: keys not sent are kept; quantity null means not counted. */
export const putConditionBody = z
  .strictObject({
    condition: oneOf(CONDITIONS).optional(),
    quantity: z
      .number({ error: (issue) => (issue.input === undefined ? undefined : 'must be an integer from 0 to 999999999, or null') })
      .int('must be an integer from 0 to 999999999, or null')
      .min(0, 'must be an integer from 0 to 999999999, or null')
      .max(999_999_999, 'must be an integer from 0 to 999999999, or null')
      .nullable()
      .optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { message: 'no field to update was given' });

export type PutCondition = z.infer<typeof putConditionBody>;

/**
 * The schemas of a sale condition (販売状態・残数) of one kind of record at a store — a menu's
 * (spec 2.5 / 4.6) or a topping's (the platform's ToppingCondition): the same rules, named by
 * the noun (`menuId`, `menu_ids`, `menu_id`). `filters` are the list's own filters, which come
 * right after the ids; `sort` its sort keys.
 */
export function saleConditionSchemas<const N extends string, const S extends string, const E extends z.ZodRawShape>(
  noun: N,
  options: { schemaId: string; sort: readonly [S, ...S[]]; filters: E },
) {
  const idKey = `${noun}Id` as `${N}Id`;
  const idColumn = `${noun}_id` as `${N}_id`;
  const item = z
    .object({
      ...({ [idKey]: z.string() } as Record<`${N}Id`, z.ZodString>),
      condition: z.enum(CONDITIONS).describe('orderable (sellable) or soldout (sold out)'),
      quantity: z.number().int().nullable().describe('remaining quantity; null when not counted (no limit)'),
    })
    .meta({ id: options.schemaId });

  const listQuery = z.strictObject({
    ...({ [`${noun}_ids`]: idsParam(noun) } as Record<`${N}_ids`, ReturnType<typeof idsParam>>),
    ...options.filters,
    category_id: digits(9).optional(),
    updated_from: dateTime
      .optional()
      .transform((v) => (v === undefined ? undefined : parseDateTime(v)!))
      .meta({ description: `only ${noun}s whose condition or quantity changed at or after this time` }),
    ...pageQuery(options.sort, RESTAURANT_PAGE),
  });

  return {
    item,
    listQuery,
    storeParams: z.object({ store_id: id() }),
    itemParams: z.object({ store_id: id(), ...({ [idColumn]: id() } as Record<`${N}_id`, ReturnType<typeof id>>) }),
    present: (row: SaleCondition & Record<`${N}_id`, number>) => ({ [idKey]: String(row[idColumn]), condition: row.condition, quantity: row.quantity }) as z.infer<typeof item>,
  };
}
