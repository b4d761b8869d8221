import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { stampsOf } from '../../platform/http/list-schemas.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { RoleRepo, type RoleRecord, type RoleRow } from './repo.js';
import { assertPlanAllows, type ControlKind } from './rules.js';
import { createRoleBody, getRoleQuery, listRolesQuery, role, roleFields, roleParams, updateRoleBody, type GetRoleQuery, type Role } from './schema.js';

const WITH_PARAM: Record<ControlKind, keyof GetRoleQuery> = {
  pos: 'with_function_controls',
  inventory: 'with_inventory_function_controls',
  alert: 'with_alert_function_controls',
};

const asList = (controls: Map<number, string>, idField: 'functionId' | 'alertType') =>
  [...controls].map(([id, division]) => ({ [idField]: String(id), controlDivision: division })) as never;

/**
 * A role as answered: its fields; with its controls on a write (all of them) and on GET one
 * (those its with_* parameters ask for with `all`); a list row has none.
 */
function presentRole(row: RoleRow | RoleRecord, zone: string, query?: Partial<GetRoleQuery>): Role {
  const out: Role = { roleId: String(row.role_id), roleName: row.role_name, note: row.note, ...stampsOf(row, zone) };
  if (!('controls' in row)) return out;
  const wanted = (kind: ControlKind) => query === undefined || query[WITH_PARAM[kind]] === 'all';
  if (wanted('pos')) out.functionControls = asList(row.controls.pos, 'functionId');
  if (wanted('inventory')) out.inventoryFunctionControls = asList(row.controls.inventory, 'functionId');
  if (wanted('alert')) out.alertFunctionControls = asList(row.controls.alert, 'alertType');
  return { roleId: out.roleId, roleName: out.roleName, note: out.note, ...pick(out), insDateTime: out.insDateTime, updDateTime: out.updDateTime };
}

/** The controls in the platform's order, between the role's own fields and its time stamps. */
const pick = (r: Role) =>
  Object.fromEntries((['functionControls', 'inventoryFunctionControls', 'alertFunctionControls'] as const).filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));

/**
 * Staff roles (役割・役職) at the platform's /roles, scope pos.staffs: GET /roles and POST, GET,
 * PATCH, DELETE /roles/{role_id}; plans as their pages say (plans.ts), the Standard plan's
 * limits in rules.ts; user tokens need the staff rights (rights.ts).
 */
export default function rolesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const repo = new RoleRepo(deps.db, deps.writer, deps.ids, deps.clock);
  return masterRoutes<RoleRow | RoleRecord, typeof createRoleBody, typeof updateRoleBody, typeof listRolesQuery, typeof getRoleQuery>('role', repo, {
    params: roleParams,
    tags: ['staff roles'],
    scope: 'pos.staffs',
    record: role,
    present: presentRole as (row: RoleRow | RoleRecord, zone: string) => Role,
    fields: roleFields,
    create: createRoleBody,
    list: listRolesQuery,
    get: getRoleQuery,
    update: updateRoleBody,
    delete: true,
    run: {
      create: (auth, body) => {
        assertPlanAllows(auth.contract.plan, null, body);
        return repo.create(auth.contract.contractId, body);
      },
      get: (auth, id) => repo.record(auth.contract.contractId, id),
      update: (auth, id, body) => {
        assertPlanAllows(auth.contract.plan, Number(id), body);
        return repo.update(auth.contract.contractId, id, body);
      },
    },
    summaries: {
      get: 'Get a role; with_function_controls, with_inventory_function_controls and with_alert_function_controls (all / none) add its controls',
      update: 'Update a role (only the keys sent change; controls change by the ids sent)',
      delete: 'Delete a role (not the administrator role 1)',
    },
  });
}
