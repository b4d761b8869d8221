import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { problemSchema } from '../../platform/http/problem.js';
import type { Right } from '../../platform/http/rights.js';
import { StaffRepo } from './repo.js';
import { bareProblem, createStaffBody, listStaffsQuery, presentStaff, staff, staffParams, updatedStaff, updateStaffBody } from './schema.js';

/** Spec 4.4: staff management edit (all) or (excluding salary); 2.3 has no salary field, so both edit every field. */
export const STAFF_EDIT_RIGHTS: readonly Right[] = ['staff_edit_all', 'staff_edit_excluding_salary'];
const STAFF_READ_RIGHTS: readonly Right[] = ['staff_view', ...STAFF_EDIT_RIGHTS];

/** Staff basic information (spec 2.3, 4.4). */
export default function staffsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const staffs = new StaffRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['staff'];

  return async (app) => {
    registerMasterRoutes(app, 'staff', staffs, {
      noun: ['staff member', 'staff'],
      tags,
      scope: 'pos.staffs',
      rights: { read: STAFF_READ_RIGHTS, write: STAFF_EDIT_RIGHTS },
      record: staff,
      present: presentStaff,
      create: createStaffBody,
      list: listStaffsQuery,
    });

    // Spec 4.4's update answers the staff id alone, and its problems carry no status.
    apiRoutes(app, tags).patch(
      '/staffs/:staff_id',
      { scope: 'pos.staffs:write', rights: STAFF_EDIT_RIGHTS, problemWithoutStatus: true },
      {
        summary: 'Update a staff member (spec 4.4: only the keys sent change; null or "" clears a nullable field)',
        params: staffParams,
        body: updateStaffBody,
        response: { 200: updatedStaff, 400: bareProblem, 401: problemSchema, 403: bareProblem, 404: bareProblem },
      },
      ({ contract, params, body }) => ({ staffId: String(staffs.update(contract.contractId, params.staff_id, body).staff_id) }),
    );
  };
}
