import { z } from 'zod';
import { TAX_RATE, MAX_TAX_RATE } from '../../domain/inventory-prices.js';
import { decimalText, date, digits, oneOf } from '../../platform/http/fields.js';
import { fieldSelection, masterRecord, pagedQuery } from '../../platform/http/list-schemas.js';
import { REDUCE_TAX_IDS } from '../categories/schema.js';

/** A rate in percent as the platform carries it: up to 3 integer digits and 3 decimals, at most 100. */
const rate = decimalText(TAX_RATE).refine((s) => Number(s) <= MAX_TAX_RATE, { message: `must be at most ${MAX_TAX_RATE}` });

// ---- GET /consumption_tax_rates (消費税率一覧取得) -------------------------------------------

/** A period of the standard rate; the platform answers no time stamps for it. */
export const consumptionTaxRate = z
  .object({
    applyStartDate: z.string().describe('適用開始日 YYYY-MM-DD: in force from midnight Japan time'),
    taxRate: z.string().describe('percent, an exact decimal'),
    taxRounding: z.enum(['0', '1', '2']).describe('0 round half up, 1 round down, 2 round up: the contract setting the totals use'),
  })
  .meta({ id: 'ConsumptionTaxRate' });
export type ConsumptionTaxRate = z.infer<typeof consumptionTaxRate>;

export const consumptionTaxRateFields = fieldSelection(consumptionTaxRate, 'ConsumptionTaxRate', 'consumption tax rate');

export const CONSUMPTION_TAX_RATE_SORT = ['applyStartDate'] as const;
export const listConsumptionTaxRatesQuery = pagedQuery(
  {
    fields: consumptionTaxRateFields.query,
    target_date: date.optional().meta({ description: 'only the rate in force on this day (one period)' }),
  },
  CONSUMPTION_TAX_RATE_SORT,
);
export type ListConsumptionTaxRatesQuery = z.infer<typeof listConsumptionTaxRatesQuery>;

/** Ours (the platform has no write): a future change of the standard rate, at head office. */
export const createConsumptionTaxRateBody = z.strictObject({ applyStartDate: date, taxRate: rate });
export type CreateConsumptionTaxRate = z.infer<typeof createConsumptionTaxRateBody>;

// ---- GET /reduce_tax_rates (軽減税率一覧取得) ------------------------------------------------

export const REDUCE_DIVISIONS = ['1', '2'] as const; // 1 specific products, 2 switched by state

/** A period of one fixed reduced-rate setting. */
export const reduceTaxRate = z
  .object({
    reduceTaxId: z.string(),
    name: z.string(),
    division: z.enum(REDUCE_DIVISIONS).describe('1 applied to specific products, 2 switched by state (eat in / take out)'),
    rate: z.string().describe('percent, an exact decimal'),
    termStart: z.string().describe('first day of the period YYYY-MM-DD (Japan time)'),
    termEnd: z.string().nullable().describe('last day of the period; null while open'),
    condition: z.string().nullable().describe('division 2: the choice buttons, comma separated'),
    advancedCondition: z.enum(['0', '1']).nullable().describe('division 2: initially 0 not applied, 1 applied; null chosen each time'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'ReduceTaxRate' });
export type ReduceTaxRate = z.infer<typeof reduceTaxRate>;

export const reduceTaxRateFields = fieldSelection(reduceTaxRate, 'ReduceTaxRate', 'reduced tax rate');

export const REDUCE_TAX_RATE_SORT = ['reduceTaxId', 'division', 'rate', 'termStart', 'termEnd'] as const;
export const listReduceTaxRatesQuery = pagedQuery(
  {
    fields: reduceTaxRateFields.query,
    reduce_tax_id: digits(9).optional(),
    division: oneOf(REDUCE_DIVISIONS).optional(),
    target_date: date.optional().meta({ description: 'only the periods in force on this day' }),
  },
  REDUCE_TAX_RATE_SORT,
);
export type ListReduceTaxRatesQuery = z.infer<typeof listReduceTaxRatesQuery>;

/**
 * Ours (the platform has no write): a future change of the reduced rate, at head office. The
 * fixed settings (REDUCE_TAX_IDS) are one rate in Japan, so the change opens a period for each.
 */
export const createReduceTaxRateBody = z.strictObject({ termStart: date, rate });
export type CreateReduceTaxRate = z.infer<typeof createReduceTaxRateBody>;

export { REDUCE_TAX_IDS };

/** The planned change a DELETE withdraws, by the day it would start. */
export const consumptionTaxRateParams = z.object({ apply_start_date: date });
export const reduceTaxRateParams = z.object({ term_start: date });
