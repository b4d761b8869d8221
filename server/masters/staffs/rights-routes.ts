import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { BadRequest, commonErrorResponses, Forbidden, problemSchema } from '../../platform/http/problem.js';
import { RIGHTS } from '../../platform/http/rights.js';
import { StaffLoginRepo } from '../../platform/auth/staff-logins.js';
import { StaffRepo } from './repo.js';
import { staffParams } from './schema.js';

const staffRights = z.object({
  staffId: z.string(),
  /** Whether the staff member can log in to the back office (a password was set). */
  login: z.boolean(),
  rights: z.array(z.enum(RIGHTS)),
});

const rightsBody = z.strictObject({
  rights: z.array(z.enum(RIGHTS)).max(RIGHTS.length).meta({ description: `the rights the staff member holds: ${RIGHTS.join(', ')}` }),
});

/**
 * A staff member's back-office rights (ours: the platform keeps them in its own console): read
 * with the staff master's read rights, set only by a holder of `staff_edit_all` (granting rights
 * is the whole of staff management), for a staff member who has a back-office login. Tokens
 * already issued carry the new rights from their next request.
 */
export default function staffRightsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const staffs = new StaffRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const logins = new StaffLoginRepo(deps.db, deps.writer, deps.clock);
  const tags = ['staffs'];
  const present = (contractId: string, staffId: string) => {
    const login = logins.find(contractId, staffId);
    return { staffId, login: login !== undefined, rights: [...(login?.rights ?? [])] };
  };

  return async (app) => {
    app.get(
      '/staffs/:staff_id/rights',
      {
        config: { scope: 'pos.staffs:read' },
        schema: { tags, summary: "A staff member's back-office rights (ours)", params: staffParams, response: { 200: staffRights, 404: problemSchema, ...commonErrorResponses } },
      },
      async (request) => {
        const { contract } = authOf(request);
        const staffId = String(staffs.get(contract.contractId, request.params.staff_id).staff_id);
        return present(contract.contractId, staffId);
      },
    );

    app.put(
      '/staffs/:staff_id/rights',
      {
        config: { scope: 'pos.staffs:write' },
        schema: {
          tags,
          summary: "Set a staff member's back-office rights (ours; a user token needs staff_edit_all)",
          params: staffParams,
          body: rightsBody,
          response: { 200: staffRights, 404: problemSchema, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract, rights: held } = authOf(request);
        // Beyond the staff table's edit rights: granting rights is the whole of staff management.
        if (held !== null && !held.includes('staff_edit_all')) throw new Forbidden('[right] the user token lacks the right staff_edit_all');
        const staffId = String(staffs.get(contract.contractId, request.params.staff_id).staff_id);
        const rights = [...new Set(request.body.rights)];
        if (!logins.setRights(contract.contractId, staffId, rights)) {
          throw BadRequest.field('rights', `staff member ${staffId} has no back-office login; set a password first (pos-backoffice staff-password set)`);
        }
        return present(contract.contractId, staffId);
      },
    );
  };
}
