import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { problemSchema } from '../../platform/http/problem.js';
import { ReservationRepo } from './repo.js';
import { createReservationBody, listReservationsQuery, presentReservation, reservation, reservationParams, updateReservationBody, type ReservationRow } from './schema.js';

/** Reservations (spec 2.4, 4.5, 4.13); every route is Food Business only (server/platform/http/plans.ts). */
export default function reservationsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const reservations = new ReservationRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const present = (contractId: string, row: ReservationRow) => presentReservation(row, reservations.tablesOfReservation(contractId, row.reservation_id));
  // Imported reservations refuse PATCH and DELETE with 405 (spec §7).
  const refusable = { ...answers.noContent(), 405: problemSchema };

  return async (app) => {
    const route = apiRoutes(app, ['reservations']);
    const [read, write] = ['waiter.orders:read', 'waiter.orders:write'] as const;

    route.post(
      '/reservations',
      write,
      { summary: 'Register a reservation (with reservationCode: import one from an external system)', body: createReservationBody, response: answers.one(reservation) },
      ({ contract, body }) => present(contract.contractId, reservations.create(contract.contractId, body)),
    );

    route.get(
      '/reservations',
      read,
      { summary: 'List reservations (by default in startAt order)', querystring: listReservationsQuery, response: answers.list(reservation) },
      ({ contract, query, page }) => page(reservations.list(contract.contractId, query, query), (r) => present(contract.contractId, r)),
    );

    route.get(
      '/reservations/:reservation_id',
      read,
      { summary: 'Get a reservation (times in Asia/Tokyo)', params: reservationParams, response: answers.found(reservation) },
      ({ contract, params }) => present(contract.contractId, reservations.get(contract.contractId, params.reservation_id)),
    );

    route.patch(
      '/reservations/:reservation_id',
      write,
      {
        summary: 'Update a reservation (only the keys sent change); imported ones and canceling a seated one are 405',
        params: reservationParams,
        body: updateReservationBody,
        response: refusable,
      },
      ({ contract, params, body, reply }) => {
        reservations.update(contract.contractId, params.reservation_id, body);
        return sendNoContent(reply);
      },
    );

    route.delete(
      '/reservations/:reservation_id',
      write,
      { summary: 'Delete a reservation that is not bound to a table use', params: reservationParams, response: refusable },
      ({ contract, params, reply }) => {
        reservations.delete(contract.contractId, params.reservation_id);
        return sendNoContent(reply);
      },
    );
  };
}
