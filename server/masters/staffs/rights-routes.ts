import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
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
  const present = (contractId: string, staffId: string) => {
    const login = logins.find(contractId, staffId);
    return { staffId, login: login !== undefined, rights: [...(login?.rights ?? [])] };
  };
  const response = { 200: staffRights, 404: problemSchema, ...commonErrorResponses };

  return async (app) => {
    const route = apiRoutes(app, ['staffs']);

    route.get('/staffs/:staff_id/rights', 'pos.staffs:read', { summary: "A staff member's back-office rights (ours)", params: staffParams, response }, ({ contract, params }) =>
      present(contract.contractId, String(staffs.get(contract.contractId, params.staff_id).staff_id)),
    );

    route.put(
      '/staffs/:staff_id/rights',
      'pos.staffs:write',
      { summary: "Set a staff member's back-office rights (ours; a user token needs staff_edit_all)", params: staffParams, body: rightsBody, response },
      ({ auth, contract, params, body }) => {
        // Beyond the staff table's edit rights: granting rights is the whole of staff management.
        if (auth.rights !== null && !auth.rights.includes('staff_edit_all')) throw new Forbidden('[right] the user token lacks the right staff_edit_all');
        const staffId = String(staffs.get(contract.contractId, params.staff_id).staff_id);
        const rights = [...new Set(body.rights)];
        if (!logins.setRights(contract.contractId, staffId, rights)) {
          throw BadRequest.field('rights', `staff member ${staffId} has no back-office login; set a password first (pos-backoffice staff-password set)`);
        }
        return present(contract.contractId, staffId);
      },
    );
  };
}
