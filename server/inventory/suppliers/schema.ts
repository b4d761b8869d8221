import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { clearable, digits, halfWidthCode, id, name, text } from '../../platform/http/fields.js';
import { fieldSelection, idParams, masterQuery, masterRecord, pagedQuery, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { SupplierProductRow, SupplierRow } from './repo.js';

/** A supplier (仕入先): the recipient of purchase orders (2.10 recipientOrderId) and of shipments (2.9 recipientType 1). */
export const supplier = masterRecord('Supplier', {
  supplierId: z.string(),
  supplierCode: z.string().nullable().describe('half-width alphanumerics and symbols, unique in the contract'),
  supplierName: z.string(),
  supplierAbbr: z.string().nullable(),
  postCode: z.string().nullable(),
  address: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  faxNumber: z.string().nullable(),
  mailAddress: z.string().nullable(),
  displaySequence: z.string().nullable(),
});

export type Supplier = z.infer<typeof supplier>;

/** Spec 4.3 `fields` of GET and list. */
export const supplierFields = fieldSelection(supplier, 'Supplier', 'supplier');

export const supplierParams = idParams('supplier_id');

const phone = z.string().regex(/^[0-9-]{1,20}$/, 'must be 1 to 20 digits or hyphens');
const fields = {
  supplierName: name(85),
  supplierCode: clearable(halfWidthCode(20)).optional(),
  supplierAbbr: clearable(text(85)).optional(),
  postCode: clearable(z.string().regex(/^[0-9-]{1,8}$/, 'must be 1 to 8 digits or hyphens')).optional(),
  address: clearable(text(255)).optional(),
  phoneNumber: clearable(phone).optional(),
  faxNumber: clearable(phone).optional(),
  mailAddress: clearable(text(255).refine((s) => /^[^\s@]+@[^\s@]+$/.test(s), { message: 'must be a mail address' })).optional(),
  displaySequence: clearable(digits(9)).optional(),
};

export const createSupplierBody = z.strictObject(fields);
export const updateSupplierBody = patchOf(fields);

export const SUPPLIER_SORT = ['supplierId', 'supplierCode', 'displaySequence', 'updDateTime'] as const;

export const listSuppliersQuery = masterQuery(
  {
    supplier_id: id().optional(),
    supplier_code: z.string().optional(),
    supplier_name: z.string().optional().describe('part of the name'),
    fields: supplierFields.query,
  },
  SUPPLIER_SORT,
);

export type CreateSupplier = z.infer<typeof createSupplierBody>;
export type UpdateSupplier = z.infer<typeof updateSupplierBody>;
export type ListSuppliersQuery = z.infer<typeof listSuppliersQuery>;

export const presentSupplier: Presenter<SupplierRow, Supplier> = presenterOf(supplier);

/**
 * What a supplier handles (the platform's supplier products): a whole category (categoryId; the
 * products of that category) or one product (productId). The other id is null.
 */
export const supplierProduct = z
  .object({
    supplierId: z.string(),
    categoryId: z.string().nullable().describe('the category the supplier handles; null for an entry of one product'),
    productId: z.string().nullable().describe('the product the supplier handles; null for an entry of a category'),
    insDateTime: z.string(),
  })
  .meta({ id: 'SupplierProduct' });

export type SupplierProduct = z.infer<typeof supplierProduct>;

/** Exactly one of categoryId and productId. */
export const createSupplierProductBody = z
  .strictObject({ categoryId: id().optional(), productId: id().optional() })
  .superRefine((b, ctx) => {
    if ((b.categoryId === undefined) === (b.productId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['productId'], message: 'give exactly one of categoryId and productId' });
    }
  });

export const SUPPLIER_PRODUCT_SORT = ['categoryId', 'productId'] as const;

export const listSupplierProductsQuery = pagedQuery({ category_id: id().optional(), product_id: id().optional() }, SUPPLIER_PRODUCT_SORT);

/** DELETE names the entry by the list's own filters: exactly one of category_id and product_id. */
export const deleteSupplierProductQuery = z
  .strictObject({ category_id: id().optional(), product_id: id().optional() })
  .superRefine((q, ctx) => {
    if ((q.category_id === undefined) === (q.product_id === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['product_id'], message: 'give exactly one of category_id and product_id' });
    }
  });

export type CreateSupplierProduct = z.infer<typeof createSupplierProductBody>;
export type ListSupplierProductsQuery = z.infer<typeof listSupplierProductsQuery>;
export type DeleteSupplierProductQuery = z.infer<typeof deleteSupplierProductQuery>;

export function presentSupplierProduct(row: SupplierProductRow, zone: string): SupplierProduct {
  return {
    supplierId: String(row.supplier_id),
    categoryId: row.division === '1' ? String(row.target_id) : null,
    productId: row.division === '2' ? String(row.target_id) : null,
    insDateTime: formatDateTime(row.ins_at, zone),
  };
}
