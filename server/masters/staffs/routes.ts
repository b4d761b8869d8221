import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
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
    app.post(
      '/staffs',
      {
        config: { scope: 'pos.staffs:write', rights: STAFF_EDIT_RIGHTS },
        schema: { tags, summary: 'Register a staff member', body: createStaffBody, response: { 200: staff, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStaff(staffs.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/staffs',
      {
        config: { scope: 'pos.staffs:read', rights: STAFF_READ_RIGHTS },
        schema: { tags, summary: 'List staff', querystring: listStaffsQuery, response: { 200: z.array(staff), ...commonErrorResponses } },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = staffs.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentStaff(r, contract.timeZone));
      },
    );

    app.get(
      '/staffs/:staff_id',
      {
        config: { scope: 'pos.staffs:read', rights: STAFF_READ_RIGHTS },
        schema: {
          tags,
          summary: 'Get a staff member',
          params: staffParams,
          response: { 200: staff, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStaff(staffs.get(contract.contractId, request.params.staff_id), contract.timeZone);
      },
    );

    app.patch(
      '/staffs/:staff_id',
      {
        config: { scope: 'pos.staffs:write', rights: STAFF_EDIT_RIGHTS, problemWithoutStatus: true },
        schema: {
          tags,
          summary: 'Update a staff member (spec 4.4: only the keys sent change; null or "" clears a nullable field)',
          params: staffParams,
          body: updateStaffBody,
          response: { 200: updatedStaff, 400: bareProblem, 401: problemSchema, 403: bareProblem, 404: bareProblem },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = staffs.update(contract.contractId, request.params.staff_id, request.body);
        return { staffId: String(row.staff_id) };
      },
    );
  };
}
