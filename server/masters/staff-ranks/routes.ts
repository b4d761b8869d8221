import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { assertNoHeadOfficeLinkage, StaffRankRepo } from './repo.js';
import { createStaffRankBody, listStaffRanksQuery, presentStaffRank, staffRank, staffRankParams, updateStaffRankBody } from './schema.js';

/** Staff ranks (spec 2.6, 4.8), keyed by the code the shop gives them. */
export default function staffRanksRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('staff_rank', new StaffRankRepo(deps.db, deps.writer, deps.clock), {
    params: staffRankParams,
    tags: ['staff ranks'],
    scope: 'pos.staffs',
    record: staffRank,
    present: presentStaffRank,
    create: createStaffRankBody,
    list: listStaffRanksQuery,
    update: updateStaffRankBody,
    beforeWrite: (auth) => assertNoHeadOfficeLinkage(auth.contract),
    summaries: {
      create: 'Register a staff rank (refused under member head-office linkage)',
      update: 'Update a staff rank (spec 4.8; refused under member head-office linkage)',
    },
  });
}
