import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { assertNoHeadOfficeLinkage, StaffRankRepo } from './repo.js';
import { createStaffRankBody, listStaffRanksQuery, presentStaffRank, staffRank, staffRankParams, updateStaffRankBody } from './schema.js';

/** Staff ranks (spec 2.6, 4.8), keyed by the code the shop gives them. */
export default function staffRanksRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ranks = new StaffRankRepo(deps.db, deps.writer, deps.clock);
  const tags = ['staff ranks'];

  return async (app) => {
    app.post(
      '/staff_ranks',
      {
        config: { scope: 'pos.staffs:write' },
        schema: {
          tags,
          summary: 'Register a staff rank (refused under member head-office linkage)',
          body: createStaffRankBody,
          response: { 200: staffRank, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        assertNoHeadOfficeLinkage(contract);
        return presentStaffRank(ranks.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/staff_ranks',
      {
        config: { scope: 'pos.staffs:read' },
        schema: {
          tags,
          summary: 'List staff ranks',
          querystring: listStaffRanksQuery,
          response: { 200: z.array(staffRank), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = ranks.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentStaffRank(r, contract.timeZone));
      },
    );

    app.get(
      '/staff_ranks/:staff_rank',
      {
        config: { scope: 'pos.staffs:read' },
        schema: {
          tags,
          summary: 'Get a staff rank',
          params: staffRankParams,
          response: { 200: staffRank, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentStaffRank(ranks.get(contract.contractId, request.params.staff_rank), contract.timeZone);
      },
    );

    app.patch(
      '/staff_ranks/:staff_rank',
      {
        config: { scope: 'pos.staffs:write' },
        schema: {
          tags,
          summary: 'Update a staff rank (spec 4.8; refused under member head-office linkage)',
          params: staffRankParams,
          body: updateStaffRankBody,
          response: { 200: staffRank, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        assertNoHeadOfficeLinkage(contract);
        return presentStaffRank(ranks.update(contract.contractId, request.params.staff_rank, request.body), contract.timeZone);
      },
    );
  };
}
