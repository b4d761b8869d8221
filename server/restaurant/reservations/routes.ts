import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { ReservationRepo } from './repo.js';
import {
  createReservationBody,
  listReservationsQuery,
  presentReservation,
  reservation,
  reservationParams,
  updateReservationBody,
  type ReservationRow,
} from './schema.js';

/** Reservations (spec 2.4, 4.5, 4.13); every route is Food Business only (server/platform/http/plans.ts). */
export default function reservationsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const reservations = new ReservationRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['reservations'];
  const present = (contractId: string, row: ReservationRow) =>
    presentReservation(row, reservations.tablesOfReservation(contractId, row.reservation_id));

  return async (app) => {
    app.post(
      '/reservations',
      {
        config: { scope: 'waiter.orders:write' },
        schema: {
          tags,
          summary: 'Register a reservation (with reservationCode: import one from an external system)',
          body: createReservationBody,
          response: { 200: reservation, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return present(contract.contractId, reservations.create(contract.contractId, request.body));
      },
    );

    app.get(
      '/reservations',
      {
        config: { scope: 'waiter.orders:read' },
        schema: {
          tags,
          summary: 'List reservations (by default in startAt order)',
          querystring: listReservationsQuery,
          response: { 200: z.array(reservation), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = reservations.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => present(contract.contractId, r));
      },
    );

    app.get(
      '/reservations/:reservation_id',
      {
        config: { scope: 'waiter.orders:read' },
        schema: {
          tags,
          summary: 'Get a reservation (times in Asia/Tokyo)',
          params: reservationParams,
          response: { 200: reservation, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return present(contract.contractId, reservations.get(contract.contractId, request.params.reservation_id));
      },
    );

    app.patch(
      '/reservations/:reservation_id',
      {
        config: { scope: 'waiter.orders:write' },
        schema: {
          tags,
          summary: 'Update a reservation (only the keys sent change); imported ones and canceling a seated one are 405',
          params: reservationParams,
          body: updateReservationBody,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema, 405: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        reservations.update(contract.contractId, request.params.reservation_id, request.body);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/reservations/:reservation_id',
      {
        config: { scope: 'waiter.orders:write' },
        schema: {
          tags,
          summary: 'Delete a reservation that is not bound to a table use',
          params: reservationParams,
          response: { 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema, 405: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        reservations.delete(contract.contractId, request.params.reservation_id);
        return reply.code(204).send(null);
      },
    );
  };
}
