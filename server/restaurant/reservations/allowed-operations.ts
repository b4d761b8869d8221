import { OperationRefused } from '../../domain/errors.js';
import type { ReservationRow, UpdateReservation } from './schema.js';

/**
 * What a reservation still allows (spec 4.13, §7): one imported from another service
 * (reservationCode) is read and deleted only, since its source owns it; one bound to a table use
 * (its party is seated) is neither canceled nor deleted, since that would cancel the table use.
 * A refusal says what the reservation still takes.
 */
type Reservation = Pick<ReservationRow, 'reservation_code' | 'reserved_from' | 'table_use_id'>;

export function assertUpdatable(id: string, r: Reservation, patch: UpdateReservation): void {
  if (r.reservation_code !== null) {
    throw OperationRefused.field(
      'reservation_id',
      `reservation ${id} was imported from ${r.reserved_from} (reservationCode ${r.reservation_code}) and cannot be updated`,
      // Deleting stays open unless the party is seated.
      r.table_use_id === null ? ['read', 'delete'] : ['read'],
    );
  }
  if (patch.status === 'canceled' && r.table_use_id !== null) {
    throw OperationRefused.field('status', `reservation ${id} is bound to table use ${r.table_use_id} and cannot be canceled`, ['read', 'update']);
  }
}

export function assertDeletable(id: string, r: Reservation): void {
  if (r.table_use_id !== null) {
    throw OperationRefused.field('reservation_id', `reservation ${id} is bound to table use ${r.table_use_id} and cannot be deleted`, [
      'read',
      // Updating stays open unless it was imported.
      ...(r.reservation_code === null ? (['update'] as const) : []),
    ]);
  }
}
