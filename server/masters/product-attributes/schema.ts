import { z } from 'zod';
import { name } from '../../platform/http/fields.js';
import type { ProductAttributeRow } from './repo.js';

/** The platform's limit: 項目番号 1 to 3. */
export const MAX_ATTRIBUTE_NO = 3;

export const attributeParams = z.object({ no: z.string().regex(/^[1-3]$/, `must be 1 to ${MAX_ATTRIBUTE_NO}`).describe('the attribute number (項目番号)') });

export const putAttributeBody = z.strictObject({ name: name(15).describe('the attribute name (属性名), up to 15 characters') });
export type PutAttribute = z.infer<typeof putAttributeBody>;

/** As the platform answers it: the number and the name, nothing else. */
export const productAttribute = z
  .object({ no: z.string().describe(`the attribute number, 1 to ${MAX_ATTRIBUTE_NO}`), name: z.string() })
  .meta({ id: 'ProductAttribute' });
export type ProductAttribute = z.infer<typeof productAttribute>;

export const presentAttribute = (r: ProductAttributeRow): ProductAttribute => ({ no: String(r.no), name: r.name });
