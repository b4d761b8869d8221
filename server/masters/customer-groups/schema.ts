import { z } from 'zod';
import { intString, name, oneOf } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { CustomerGroupRow, CustomerGroupSectionRow } from './repo.js';

export const DISPLAY_FLAGS = ['0', '1'] as const; // 0 not shown on terminal, 1 shown

// --- customer group sections ---------------------------------------------------------

export const customerGroupSection = masterRecord('CustomerGroupSection', {
  customerGroupSectionId: z.string().describe('1 to 5'),
  customerGroupSectionLabel: z.string().describe('"" in the answer to the PUT that deleted the section'),
});

export type CustomerGroupSection = z.infer<typeof customerGroupSection>;

// A contract has at most five sections; their ids are fixed slots 1..5, not minted ids.
export const sectionParams = z.object({
  customer_group_section_id: z.string().regex(/^[1-5]$/, 'must be 1 to 5'),
});

/** The platform's body: a label of at most 85 characters creates or relabels the section; "" deletes it. */
const sectionLabel = z
  .string()
  .refine((s) => s.isWellFormed(), { message: 'must be valid Unicode text' })
  .refine((s) => s === '' || s.trim().length > 0, { message: 'must not be blank; an empty string deletes the section' })
  .refine((s) => [...s].length <= 85, { message: 'must be at most 85 characters' })
  .meta({ maxLength: 85 });

export const putSectionBody = z.strictObject({ customerGroupSectionLabel: sectionLabel });

export type PutSection = z.infer<typeof putSectionBody>;

export const SECTION_SORT = ['customerGroupSectionId', 'updDateTime'] as const;

export const listSectionsQuery = masterQuery({}, SECTION_SORT);

export type ListSectionsQuery = z.infer<typeof listSectionsQuery>;

/** A section; the answer to a PUT that deleted one has label "" and the deletion as updDateTime. */
export const presentCustomerGroupSection: Presenter<CustomerGroupSectionRow, CustomerGroupSection> = presenterOf(customerGroupSection, {
  customerGroupSectionId: (row) => String(row.section_id),
  customerGroupSectionLabel: (row) => row.label,
});

// --- customer groups (spec 2.2) ------------------------------------------------------

export const customerGroup = masterRecord('CustomerGroup', {
  customerGroupId: z.string(),
  customerGroupSectionId: z.string().describe('integer-formatted'),
  label: z.string(),
  displayFlag: z.enum(DISPLAY_FLAGS).describe('0 not shown on terminal, 1 shown'),
  displaySequence: z.string().describe('integer-formatted'),
});

export type CustomerGroup = z.infer<typeof customerGroup>;

export const customerGroupParams = idParams('customer_group_id');

const fields = { customerGroupSectionId: intString, label: name(85), displayFlag: oneOf(DISPLAY_FLAGS).optional(), displaySequence: intString.optional() };
export const createCustomerGroupBody = z.strictObject(fields);

// A customer group always has a label: PATCH may replace it but not clear it. name() already
// refuses ""; null gets a message saying so instead of zod's "expected string, received null".
const replacementLabel = z
  .string({ error: (issue) => (issue.input === null ? 'cannot be cleared; a customer group needs a label' : undefined) })
  .pipe(name(85))
  .meta({ maxLength: 85 });

// Spec 4.1: every field optional, only the keys sent change.
export const updateCustomerGroupBody = patchOf(fields, { label: replacementLabel.optional() });

export const CUSTOMER_GROUP_SORT = ['customerGroupId', 'customerGroupSectionId', 'displaySequence'] as const;

export const listCustomerGroupsQuery = masterQuery(
  { customer_group_section_id: intString.optional(), display_flag: oneOf(DISPLAY_FLAGS).optional() },
  CUSTOMER_GROUP_SORT,
);

export type CreateCustomerGroup = z.infer<typeof createCustomerGroupBody>;
export type UpdateCustomerGroup = z.infer<typeof updateCustomerGroupBody>;
export type ListCustomerGroupsQuery = z.infer<typeof listCustomerGroupsQuery>;

export const presentCustomerGroup: Presenter<CustomerGroupRow, CustomerGroup> = presenterOf(customerGroup, {
  customerGroupSectionId: (row) => String(row.section_id),
});
