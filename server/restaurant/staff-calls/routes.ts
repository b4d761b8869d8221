import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { StaffCallRepo } from './repo.js';
import { answerStaffCallBody, createStaffCallBody, listStaffCallsQuery, presentStaffCall, staffCall, staffCallParams } from './schema.js';

/**
 * Staff calls: POST /staff_calls as platform clients call it (scope waiter.staff-calls:write),
 * and where the calls are read and answered (waiter.staff-calls:read / :write): GET /staff_calls,
 * GET and PATCH /staff_calls/{staff_call_id}. Open to every plan. The platform has no webhook
 * event for a call, so none is raised.
 */
export default function staffCallsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const calls = new StaffCallRepo(deps.db, deps.writer, deps.ids, deps.clock);
  return async (app) => {
    const route = apiRoutes(app, ['staff calls']);
    const [read, write] = ['waiter.staff-calls:read', 'waiter.staff-calls:write'] as const;

    route.post('/staff_calls', write, { summary: 'Call staff to a table (スタッフ呼び出し)', body: createStaffCallBody, response: answers.one(staffCall) }, ({ contract, body }) =>
      presentStaffCall(calls.create(contract.contractId, body), contract.timeZone),
    );

    route.get(
      '/staff_calls',
      read,
      { summary: 'List staff calls (the calling ones by default), newest first', querystring: listStaffCallsQuery, response: answers.list(staffCall) },
      ({ contract, query, page }) => page(calls.list(contract.contractId, query, query), (row) => presentStaffCall(row, contract.timeZone)),
    );

    route.get('/staff_calls/:staff_call_id', read, { summary: 'Get a staff call', params: staffCallParams, response: answers.found(staffCall) }, ({ contract, params }) =>
      presentStaffCall(calls.get(contract.contractId, params.staff_call_id), contract.timeZone),
    );

    route.patch(
      '/staff_calls/:staff_call_id',
      write,
      { summary: 'Answer a staff call (status answered, optionally by a staff member)', params: staffCallParams, body: answerStaffCallBody, response: answers.found(staffCall) },
      ({ contract, params, body }) => presentStaffCall(calls.answerCall(contract.contractId, params.staff_call_id, body), contract.timeZone),
    );
  };
}
