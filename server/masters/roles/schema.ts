import { z } from 'zod';
import { id, name, oneOf, text, clearable } from '../../platform/http/fields.js';
import { fieldSelection, masterRecord, pagedQuery, patchOf } from '../../platform/http/list-schemas.js';

export const ROLE_NAME_MAX = 30;
export const NOTE_MAX = 255;
/** 1 使用不可, 2 閲覧, 3 編集, 4 すべて (POS and inventory functions). */
export const CONTROL_DIVISIONS = ['1', '2', '3', '4'] as const;
/** 0 使用不可, 1 使用可 (alerts). */
export const ALERT_DIVISIONS = ['0', '1'] as const;
export const WITH = ['all', 'none'] as const;

const functionControl = z.object({ functionId: z.string(), controlDivision: z.string() }).meta({ id: 'RoleFunctionControl' });
const alertControl = z.object({ alertType: z.string(), controlDivision: z.string() }).meta({ id: 'RoleAlertFunctionControl' });

/**
 * A staff role (役割・役職). The list answers its own fields; a single role, a registration and
 * an update answer its function controls too (GET one: those its with_* parameters ask for).
 */
export const role = masterRecord('Role', {
  roleId: z.string(),
  roleName: z.string(),
  note: z.string().nullable(),
  functionControls: z.array(functionControl).optional().describe('POS functions: 1 to 20, 2001 to 2012, 7001 to 7003'),
  inventoryFunctionControls: z.array(functionControl).optional().describe('inventory functions 1 to 12 (Retail Business)'),
  alertFunctionControls: z.array(alertControl).optional().describe('alerts: 1 out of stock, 2 order point (Retail Business)'),
});
export type Role = z.infer<typeof role>;

export const roleFields = fieldSelection(role, 'Role', 'role');

export const roleParams = z.object({ role_id: id() });

const digitsOf = (what: string) => z.string().regex(/^\d{1,9}$/, `must be the ${what} as digits`).transform(Number);

const posControls = z.array(z.strictObject({ functionId: digitsOf('function id'), controlDivision: oneOf(CONTROL_DIVISIONS) }));
const alertControls = z.array(z.strictObject({ alertType: digitsOf('alert type'), controlDivision: oneOf(ALERT_DIVISIONS) }));

const roleName = z
  .string({ error: (issue) => (issue.input === null ? 'cannot be cleared; a role needs a name' : undefined) })
  .pipe(name(ROLE_NAME_MAX))
  .meta({ maxLength: ROLE_NAME_MAX });

const writable = {
  roleName,
  note: clearable(text(NOTE_MAX)).optional(),
  functionControls: posControls.optional(),
  inventoryFunctionControls: posControls.optional(),
  alertFunctionControls: alertControls.optional(),
};

export const createRoleBody = z.strictObject(writable);
export const updateRoleBody = patchOf(writable);

export const ROLE_SORT = ['roleId', 'updDateTime'] as const;
export const listRolesQuery = pagedQuery({ fields: roleFields.query }, ROLE_SORT);

export const getRoleQuery = z.strictObject({
  fields: roleFields.query,
  with_function_controls: oneOf(WITH).optional(),
  with_inventory_function_controls: oneOf(WITH).optional(),
  with_alert_function_controls: oneOf(WITH).optional(),
});

export type CreateRole = z.infer<typeof createRoleBody>;
export type UpdateRole = z.infer<typeof updateRoleBody>;
export type ListRolesQuery = z.infer<typeof listRolesQuery>;
export type GetRoleQuery = z.infer<typeof getRoleQuery>;
