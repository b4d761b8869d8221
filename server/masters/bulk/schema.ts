import { z } from 'zod';
import { isHttpUrl } from '../../events/webhook-events.js';
import { id } from '../../platform/http/fields.js';
import { createCustomerBody } from '../customers/schema.js';
import { createProductBody } from '../products/schema.js';

/** The platform's limit: "1リクエストにつき100件まで". */
export const MAX_BULK_ROWS = 100;

/** The URL the completion notice goes to (the platform's 処理完了通知URL). */
const callbackUrl = z
  .string()
  .max(511, 'must be at most 511 characters')
  .refine((s) => /^https?:\/\/\S+$/.test(s) && isHttpUrl(s), { message: 'must be an http:// or https:// URL' });

const rows = <T extends z.ZodType>(row: T) =>
  z.array(row).min(1, 'must have at least 1 row').max(MAX_BULK_ROWS, `must have at most ${MAX_BULK_ROWS} rows`);

/** Every field of a registration body, optional: what an update row may send beside its id. */
const optional = <S extends z.ZodRawShape>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([key, s]) => [key, s instanceof z.ZodOptional ? s : (s as z.ZodType).optional()])) as {
    [K in keyof S]: z.ZodOptional<S[K]> | S[K];
  };

/** POST /products/bulk: each row a product registration body, as POST /products takes it. */
export const bulkCreateProductsBody = z.strictObject({
  products: rows(createProductBody).describe('each a POST /products body'),
  callbackUrl: callbackUrl.describe('the completion notice (pos:products, bulk-update) is sent here'),
});
export type BulkCreateProducts = z.infer<typeof bulkCreateProductsBody>;

/** PATCH /products/bulk: each row a productId and the keys to change, as PATCH /products/{product_id} takes them. */
export const bulkUpdateProductsBody = z.strictObject({
  products: rows(z.strictObject({ productId: id(15), ...optional(createProductBody.shape) })).describe(
    'each a productId and the keys of PATCH /products/{product_id} to change',
  ),
  callbackUrl: callbackUrl.describe('the completion notice (pos:products, bulk-update) is sent here'),
});
export type BulkUpdateProducts = z.infer<typeof bulkUpdateProductsBody>;

/** POST /customers/bulk: each row a member registration body, as POST /customers takes it. */
export const bulkCreateCustomersBody = z.strictObject({
  customers: rows(createCustomerBody).describe('each a POST /customers body'),
  callbackUrl: callbackUrl.describe('the completion notice (pos:customers, bulk-update) is sent here'),
});
export type BulkCreateCustomers = z.infer<typeof bulkCreateCustomersBody>;

/** PATCH /customers/bulk: each row a customerId and the keys to change, as PATCH /customers/{customer_id} takes them. */
export const bulkUpdateCustomersBody = z.strictObject({
  customers: rows(z.strictObject({ customerId: id(), ...optional(createCustomerBody.shape) })).describe(
    'each a customerId and the keys of PATCH /customers/{customer_id} to change',
  ),
  callbackUrl: callbackUrl.describe('the completion notice (pos:customers, bulk-update) is sent here'),
});
export type BulkUpdateCustomers = z.infer<typeof bulkUpdateCustomersBody>;

/** The answer of an accepted request (the platform's 処理受付完了). */
export const bulkAccepted = z
  .object({
    requestId: z.number().int().describe('the request, as the completion notice names it'),
    callbackUrl: z.string(),
  })
  .meta({ id: 'MasterBulkAccepted' });
